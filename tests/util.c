/* util.c -- helpers shared by the tests. */
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const char *shared_path(const char *rel) {
    static __thread char path[4096];
    const char *root = getenv("GGUF_SHARED");
    snprintf(path, sizeof path, "%s/%s", root ? root : "../shared", rel);
    return path;
}

bool test_reduced_sweeps(void) {
    const char *v = getenv("LGG_TEST_SWEEPS");
    return v && !strcmp(v, "reduced");
}

const char *build_dir(void) {
    const char *b = getenv("GGUF_BUILD");
    return b ? b : "build";
}

unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *p = malloc(cap);
    for (;;) {
        if (n + 1 >= cap) { /* room for the NUL after the bytes */
            cap *= 2;
            p = realloc(p, cap);
        }
        size_t r = fread(p + n, 1, cap - 1 - n, f);
        if (r == 0) break;
        n += r;
    }
    fclose(f);
    p[n] = 0; /* a text file reads as a C string */
    *size = n;
    return p;
}

static char scratch[256];
static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    remove(path); /* keep going: remove what can be removed */
    return 0;
}
/* The scratch directory and everything in it, subdirectories too (kept
 * with LGG_TEST_KEEP set, to look at what a test made). */
static void rm_scratch(void) {
    if (scratch[0] && !getenv("LGG_TEST_KEEP")) nftw(scratch, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
const char *scratch_dir(void) {
    if (!scratch[0]) {
        snprintf(scratch, sizeof scratch, "%s/lggtest.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(scratch)) abort();
        atexit(rm_scratch);
    }
    return scratch;
}

void buf_put(buf *b, const void *p, size_t n) {
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap : 256;
        while (c < b->n + n) c *= 2;
        b->p = realloc(b->p, c);
        b->cap = c;
    }
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}
void buf_u8(buf *b, uint8_t v) { buf_put(b, &v, 1); }
void buf_u16(buf *b, uint16_t v) {
    if (b->big) v = __builtin_bswap16(v);
    buf_put(b, &v, 2);
}
void buf_u32(buf *b, uint32_t v) {
    if (b->big) v = __builtin_bswap32(v);
    buf_put(b, &v, 4);
}
void buf_u64(buf *b, uint64_t v) {
    if (b->big) v = __builtin_bswap64(v);
    buf_put(b, &v, 8);
}
void buf_str_n(buf *b, const char *s, uint64_t n) {
    buf_u64(b, n);
    buf_put(b, s, (size_t)n);
}
void buf_str(buf *b, const char *s) { buf_str_n(b, s, strlen(s)); }
void buf_pad(buf *b, size_t align) {
    while (b->n % align) buf_u8(b, 0);
}
void buf_free(buf *b) {
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

static char *slurp_fd(int fd, size_t *len) {
    size_t cap = 4096, n = 0;
    char *p = malloc(cap);
    for (;;) {
        if (n + 1 >= cap) p = realloc(p, cap *= 2);
        ssize_t r = read(fd, p + n, cap - n - 1);
        if (r <= 0) break;
        n += (size_t)r;
    }
    p[n] = 0;
    *len = n;
    return p;
}

int run_capture(char *const argv[], char **out, size_t *out_len, char **err, size_t *err_len, int *status) {
    return run_capture_stdin(argv, "/dev/null", out, out_len, err, err_len, status);
}

int run_capture_stdin(char *const argv[], const char *in, char **out, size_t *out_len, char **err, size_t *err_len,
                      int *status) {
    /* stdout and stderr go to temporary files, so neither pipe can fill up and block */
    char po[512], pe[512];
    snprintf(po, sizeof po, "%s/out.XXXXXX", scratch_dir());
    snprintf(pe, sizeof pe, "%s/err.XXXXXX", scratch_dir());
    int fo = mkstemp(po), fe = mkstemp(pe);
    if (fo < 0 || fe < 0) return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, in, O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fo, 1);
    posix_spawn_file_actions_adddup2(&fa, fe, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        close(fo);
        close(fe);
        return -1;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0) {
    }
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    lseek(fo, 0, SEEK_SET);
    lseek(fe, 0, SEEK_SET);
    *out = slurp_fd(fo, out_len);
    *err = slurp_fd(fe, err_len);
    close(fo);
    close(fe);
    unlink(po);
    unlink(pe);
    return 0;
}

int run_gguf_capture(char **out, char **err, ...) {
    char *argv[64];
    char tool[1024];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    argv[0] = tool;
    int n = 1;
    va_list ap;
    va_start(ap, err);
    const char *a;
    while ((a = va_arg(ap, const char *)) && n < 63) argv[n++] = (char *)a;
    va_end(ap);
    argv[n] = NULL;
    size_t ol, el;
    int status;
    char *o = NULL, *e = NULL;
    if (run_capture(argv, &o, &ol, &e, &el, &status) != 0) return -2;
    if (out) *out = o;
    else free(o);
    if (err) *err = e;
    else free(e);
    return status;
}

const char *scratch_path(const char *name) {
    static char p[8][1024];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", scratch_dir(), name);
    return p[k];
}


char *text_replace(const char *s, const char *from, const char *to) {
    size_t fl = strlen(from), tl = strlen(to), n = 0;
    for (const char *p = s; (p = strstr(p, from)); p += fl) n++;
    char *r = malloc(strlen(s) + n * tl + 1), *o = r;
    if (!r) return NULL;
    for (const char *p = s;;) {
        const char *q = strstr(p, from);
        if (!q) {
            strcpy(o, p);
            break;
        }
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, tl);
        o += tl;
        p = q + fl;
    }
    return r;
}


bool file_copy(const char *from, const char *to) {
    size_t n = 0;
    unsigned char *p = read_file(from, &n);
    if (!p) return false;
    FILE *f = fopen(to, "wb");
    bool ok = f && fwrite(p, 1, n, f) == n;
    if (f) ok = fclose(f) == 0 && ok;
    free(p);
    return ok;
}

/* The first name in dir that starts with `start`, or 0. */
int has_entry(const char *dir, const char *start) {
    DIR *d = opendir(dir);
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d));) found = !strncmp(e->d_name, start, strlen(start));
    if (d) closedir(d);
    return found;
}

/* How many entries dir has, "." and ".." aside (0 when it cannot be read). */
int entries_in(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d) closedir(d);
    return n;
}

/* Start gguf with argv (after the tool's path), stdout into a pipe of one
 * page that nobody reads: a command printing each file it writes stops
 * there, so the signal comes mid-run whatever the machine's speed.  Wait
 * for a name starting with `first` in dir (10 s at most), send sig, and
 * return the wait status (-1: not started, -2: the file never came). */
int signal_mid_run(char **args, const char *dir, const char *first, int sig) {
    char tool[1024];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    char *argv[24] = {tool};
    int n = 1;
    for (; args[n - 1] && n < 23; n++) argv[n] = args[n - 1];
    argv[n] = NULL;
    int p[2];
    if (pipe(p) != 0) return -1;
    (void)fcntl(p[1], F_SETPIPE_SZ, 4096);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_addclose(&fa, p[0]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    extern char **environ;
    pid_t pid;
    int rc = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        return -1;
    }
    int seen = 0;
    for (int i = 0; i < 10000 && !(seen = has_entry(dir, first)); i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    kill(pid, sig);
    int st = 0;
    waitpid(pid, &st, 0);
    close(p[0]);
    return seen ? st : -2;
}


int put_file(const char *dir, const char *name, const void *p, size_t n) {
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int ok = fwrite(p, 1, n, f) == n;
    return (fclose(f) == 0) & ok;
}

int put_text(const char *dir, const char *name, const char *s) { return put_file(dir, name, s, strlen(s)); }

double children_cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

int run_gguf_in(const char *dir, char *const argv[], const char *errpath) {
    char tool[4200], abs_build[4096];
    if (!realpath(build_dir(), abs_build)) return -1;
    snprintf(tool, sizeof tool, "%s/gguf", abs_build);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, errpath ? errpath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addchdir_np(&fa, dir);
    pid_t pid;
    int rc = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0) {
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
