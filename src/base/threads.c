/* threads.c -- how many threads, and the one fan-out of independent jobs
 * that the whole-tensor functions share.
 *
 * A job whose thread cannot be started (out of threads, or memory for a
 * stack) runs on the calling thread instead: every job's result depends
 * only on its own range, so the output is the same, only later. */
#include "base/internal.h"

#include <pthread.h>
#include <unistd.h>

unsigned lgg__threads(int n_threads) {
    long n = n_threads;
    if (n <= 0) n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    return n > (long)LGG__MAX_THREADS ? LGG__MAX_THREADS : (unsigned)n;
}

void lgg__fan_out(void *(*fn)(void *), void *jobs, size_t size, unsigned n) {
    pthread_t tid[LGG__MAX_THREADS];
    bool started[LGG__MAX_THREADS];
    char *job = jobs;
    const unsigned threads = n > LGG__MAX_THREADS ? LGG__MAX_THREADS : n;
    for (unsigned i = 1; i < threads; i++) started[i] = pthread_create(&tid[i], NULL, fn, job + i * size) == 0;
    if (n) fn(job);
    for (unsigned i = threads; i < n; i++) fn(job + (size_t)i * size); /* beyond the threads: here */
    for (unsigned i = 1; i < threads; i++) {
        if (started[i]) pthread_join(tid[i], NULL);
        else fn(job + i * size);
    }
}

void lgg_run_jobs(void *(*fn)(void *), void *jobs, size_t job_size, unsigned n) {
    if (fn) lgg__fan_out(fn, jobs, job_size, n);
}
