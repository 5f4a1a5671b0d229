/* test_threads.c -- after open, every read is thread-safe: many threads look
 * up, iterate and validate one file at once and all see the same answers. */
#include "test.h"
#include "libgguf.h"

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
    if (!need_shared()) return;
    REQUIRE(lgg_open_file(shared_path("corpus/llama.cpp/ggml-vocab-llama-spm@658295a5.gguf"), NULL, &shared_file,
                          NULL) == LGG_OK);
    pthread_t t[4];
    for (int i = 0; i < 4; i++) REQUIRE(pthread_create(&t[i], NULL, worker, NULL) == 0);
    for (int i = 0; i < 4; i++) {
        void *bad;
        pthread_join(t[i], &bad);
        CHECK(bad == NULL);
    }
    lgg_close(shared_file);
}
