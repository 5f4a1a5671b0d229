/* test_threads.c -- after open, every read is thread-safe: many threads look
 * up, iterate and validate one file at once and all see the same answers. */
#include "test.h"
#include "libgguf.h"
#include "standin.h"

#include <pthread.h>

static lgg_file *shared_file;

static void *worker(void *arg) {
    uintptr_t bad = 0;
    (void)arg;
    for (int round = 0; round < 20; round++) {
        for (uint64_t i = 0; i < lgg_kv_count(shared_file); i++) {
            const lgg_kv *kv = lgg_kv_at(shared_file, i);
            if (lgg_find_key(shared_file, kv->key.ptr, kv->key.len) != (int64_t)i) bad++;
            if (kv->value.type == LGG_VT_ARRAY) {
                lgg_iter it;
                lgg_value e;
                uint64_t n = 0;
                lgg_array_iter(&kv->value, &it);
                while (lgg_iter_next(&it, &e)) n++;
                if (n != kv->value.count) bad++;
            }
        }
        lgg_report *r = NULL;
        if (lgg_validate(shared_file, NULL, &r) != LGG_OK || lgg_report_count_severity(r, LGG_SEV_ERROR)) bad++;
        lgg_report_free(r);
    }
    return (void *)bad;
}

TEST(threads_concurrent_reads_of_one_file) {
    const char *in = need_model("corpus/llama.cpp/ggml-vocab-llama-spm@658295a5.gguf");
    if (!in) return;
    REQUIRE(lgg_open_file(in, NULL, &shared_file, NULL) == LGG_OK);
    pthread_t t[4];
    for (int i = 0; i < 4; i++) REQUIRE(pthread_create(&t[i], NULL, worker, NULL) == 0);
    for (int i = 0; i < 4; i++) {
        void *bad;
        pthread_join(t[i], &bad);
        CHECK(bad == NULL);
    }
    lgg_close(shared_file);
}

/* lgg_run_jobs: every job runs once, on its own slot, beyond the 64 threads
 * too; job_size 0 hands every job the same pool. */
typedef struct {
    int runs;
    pthread_t by;
} slot;
static void *mark_slot(void *arg) {
    slot *s = arg;
    s->runs++;
    s->by = pthread_self();
    return NULL;
}
typedef struct {
    pthread_mutex_t lock;
    int taken, total;
} pool;
static void *drain_pool(void *arg) {
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int more = p->taken < p->total;
        if (more) p->taken++;
        pthread_mutex_unlock(&p->lock);
        if (!more) return NULL;
    }
}
TEST(threads_run_jobs) {
    enum { N = 100 };
    static slot s[N];
    memset(s, 0, sizeof s);
    lgg_run_jobs(mark_slot, s, sizeof s[0], N);
    int once = 0, here = 0;
    for (int k = 0; k < N; k++) once += s[k].runs == 1, here += pthread_equal(s[k].by, pthread_self()) != 0;
    CHECKF(once == N, "%d of %d jobs ran once", once, N);
    CHECK(pthread_equal(s[0].by, pthread_self())); /* job 0 on the caller */
    CHECKF(here >= N - 64 + 1, "%d jobs on the calling thread, want the %d beyond the threads and job 0", here, N - 63);
    pool p = {PTHREAD_MUTEX_INITIALIZER, 0, 100000};
    lgg_run_jobs(drain_pool, &p, 0, 4);
    CHECK_EQ_U(p.taken, 100000);
    lgg_run_jobs(mark_slot, s, sizeof s[0], 0); /* no job: nothing runs */
    CHECK_EQ_U(s[0].runs, 1);
}
