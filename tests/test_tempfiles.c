/* test_tempfiles.c -- every safe write tells the caller about its temporary
 * file (lgg_write_options.temp_fn, lgg_quant_write_options.temp_fn), so that
 * a tool can remove it on SIGINT/SIGTERM; and no temporary file survives a
 * failed write. */
#include "test.h"
#include "libgguf.h"
#include "gen.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_EVENTS 16
typedef struct events {
    int n;
    char path[MAX_EVENTS][600];
    int created[MAX_EVENTS];
    bool existed[MAX_EVENTS]; /* the temporary file existed when the hook ran */
    int about, bad_about;     /* "about to create" calls, and ones with a path */
    int placed, bad_placed;   /* "renamed into place" calls, and ones whose target did not exist */
} events;

static void hook(void *ud, const char *tmp_path, int created) {
    events *e = ud;
    if (created == 2) { /* about to create or to rename: no name */
        e->about++;
        e->bad_about += tmp_path != NULL;
        return;
    }
    struct stat st;
    if (created == 3) { /* in place: the target's name */
        e->placed++;
        e->bad_placed += !tmp_path || stat(tmp_path, &st) != 0 || strstr(tmp_path, ".tmp") != NULL;
        return;
    }
    if (e->n == MAX_EVENTS) return;
    snprintf(e->path[e->n], sizeof e->path[0], "%s", tmp_path);
    e->created[e->n] = created;
    e->existed[e->n] = stat(tmp_path, &st) == 0;
    e->n++;
}

/* Each temporary file announced once, existing, then retired once, gone: in
 * pairs, in order; each one renamed into place announced before the rename
 * and named after it.  Returns the number of pairs. */
static int check_pairs(const events *e, const char *what) {
    CHECKF(e->n % 2 == 0, "%s: %d events", what, e->n);
    CHECKF(e->about == e->n / 2 + e->placed && !e->bad_about, "%s: %d announcements for %d files, %d placed", what,
           e->about, e->n / 2, e->placed);
    CHECKF(!e->bad_placed && e->placed <= e->n / 2, "%s: %d placed, %d wrongly", what, e->placed, e->bad_placed);
    for (int i = 0; i + 1 < e->n; i += 2) {
        CHECKF(e->created[i] == 1 && e->existed[i], "%s: event %d", what, i);
        CHECKF(e->created[i + 1] == 0 && !e->existed[i + 1], "%s: event %d", what, i + 1);
        CHECKF(!strcmp(e->path[i], e->path[i + 1]), "%s: %s then %s", what, e->path[i], e->path[i + 1]);
        CHECKF(strstr(e->path[i], ".tmp") != NULL, "%s: %s", what, e->path[i]);
    }
    return e->n / 2;
}

/* Files in `dir` whose name has ".tmp" in it. */
static int temp_files_in(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strstr(de->d_name, ".tmp")) n++;
    closedir(d);
    return n;
}

/* A fresh directory under the scratch one. */
static const char *fresh_dir(const char *name) {
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", scratch_dir(), name);
    mkdir(path, 0777);
    return path;
}

static lgg_file *small_model(buf *b) {
    gen_small_model(b);
    lgg_file *f = NULL;
    lgg_error e;
    return lgg_open_memory(b->p, b->n, NULL, &f, &e) == LGG_OK ? f : NULL;
}

typedef struct fault {
    long budget;
} fault;
static long failing_write(void *ud, int fd, const void *p, size_t n) {
    fault *ft = ud;
    if (ft->budget <= 0) {
        errno = ENOSPC;
        return -1;
    }
    if ((long)n > ft->budget) n = (size_t)ft->budget;
    long r = (long)write(fd, p, n);
    if (r > 0) ft->budget -= r;
    return r;
}

TEST(tempfiles_write_file_and_update_file) {
    const char *dir = fresh_dir("temp-write");
    buf b = {0};
    lgg_file *f = small_model(&b);
    REQUIRE(f != NULL);
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_from_file(f, -1, NULL, 0, &w, NULL) == LGG_OK);
    char out[600];
    snprintf(out, sizeof out, "%s/out.gguf", dir);
    events ev = {0};
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.temp_fn = hook;
    o.temp_ud = &ev;
    lgg_error e;
    REQUIRE(lgg_writer_write_file(w, out, &o, &e) == LGG_OK);
    CHECK_EQ_U(check_pairs(&ev, "write_file"), 1);
    CHECK_EQ_U(ev.placed, 1);
    CHECK(access(out, F_OK) == 0);

    /* failures at several points: the hook retires the file, nothing stays */
    for (long budget = 0; budget < (long)b.n; budget += 37) {
        events fe = {0};
        fault ft = {budget};
        lgg_write_options fo = o;
        fo.temp_ud = &fe;
        fo.write_fn = failing_write;
        fo.write_ud = &ft;
        CHECK(lgg_writer_write_file(w, out, &fo, &e) == LGG_ERR_IO);
        CHECK_EQ_U(check_pairs(&fe, "failed write_file"), 1);
        CHECK_EQ_U(fe.placed, 0);
        CHECK_EQ_U(temp_files_in(dir), 0);
    }
    lgg_writer_free(w);

    /* an edit that moves the data: the rewrite path makes a temporary file */
    lgg_file *g = NULL;
    REQUIRE(lgg_open_file(out, NULL, &g, &e) == LGG_OK);
    REQUIRE(lgg_writer_from_file(g, -1, NULL, 0, &w, &e) == LGG_OK);
    char big[200];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    REQUIRE(lgg_writer_set_str(w, "general.description", big, &e) == LGG_OK);
    events ue = {0};
    o.temp_ud = &ue;
    bool in_place = true;
    REQUIRE(lgg_writer_update_file(w, out, &o, &in_place, &e) == LGG_OK);
    CHECK(!in_place);
    CHECK_EQ_U(check_pairs(&ue, "update_file"), 1);
    lgg_writer_free(w);
    lgg_close(g);
    CHECK_EQ_U(temp_files_in(dir), 0);
    lgg_close(f);
    buf_free(&b);
}

TEST(tempfiles_split_and_merge) {
    const char *dir = fresh_dir("temp-split");
    buf b = {0};
    lgg_file *f = small_model(&b);
    REQUIRE(f != NULL);
    lgg_split_options so;
    lgg_split_options_init(&so);
    so.max_tensors = 1;
    lgg_split_plan *plan = NULL;
    lgg_error e;
    REQUIRE(lgg_split_plan_make(f, &so, &plan, &e) == LGG_OK);
    const uint32_t n = lgg_split_plan_count(plan);
    REQUIRE(n == 2);
    events ev = {0};
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.temp_fn = hook;
    o.temp_ud = &ev;
    char prefix[600], paths[2][700];
    snprintf(prefix, sizeof prefix, "%s/m", dir);
    for (uint32_t i = 0; i < n; i++) {
        lgg_writer *w = NULL;
        REQUIRE(lgg_split_shard_writer(f, -1, plan, i, &w, &e) == LGG_OK);
        lgg_split_path(paths[i], sizeof paths[i], prefix, i, n);
        CHECK(lgg_writer_write_file(w, paths[i], &o, &e) == LGG_OK);
        lgg_writer_free(w);
    }
    CHECK_EQ_U(check_pairs(&ev, "split"), 2);
    CHECK_EQ_U(ev.placed, 2);
    lgg_split_plan_free(plan);

    lgg_file *shards[2] = {NULL, NULL};
    for (uint32_t i = 0; i < n; i++) REQUIRE(lgg_open_file(paths[i], NULL, &shards[i], &e) == LGG_OK);
    lgg_writer *mw = NULL;
    REQUIRE(lgg_merge_writer((const lgg_file *const *)shards, NULL, n, NULL, &mw, &e) == LGG_OK);
    events me = {0};
    o.temp_ud = &me;
    char merged[700];
    snprintf(merged, sizeof merged, "%s/merged.gguf", dir);
    CHECK(lgg_writer_write_file(mw, merged, &o, &e) == LGG_OK);
    CHECK_EQ_U(check_pairs(&me, "merge"), 1);
    lgg_writer_free(mw);
    for (uint32_t i = 0; i < n; i++) lgg_close(shards[i]);
    CHECK_EQ_U(temp_files_in(dir), 0);
    lgg_close(f);
    buf_free(&b);
}

/* lgg_quant_plan_write, one output and one per split. */
TEST(tempfiles_quant_plan_write) {
    char mp[600];
    snprintf(mp, sizeof mp, "%s", shared_path("golden/llama-quantize/pub-dense-f16.gguf"));
    lgg_file *f = NULL;
    if (lgg_open_file(mp, NULL, &f, NULL) != LGG_OK) {
        fprintf(stderr, "    (no %s: skipped)\n", mp);
        return;
    }
    const char *dir = fresh_dir("temp-quant");
    lgg_quant_options qo;
    lgg_quant_options_init(&qo);
    qo.preset = lgg_quant_preset_find("Q8_0");
    lgg_quant_plan *p = NULL;
    lgg_error e;
    REQUIRE(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &qo, &p, &e) == LGG_OK);
    events ev = {0};
    lgg_quant_write_options wo;
    lgg_quant_write_options_init(&wo);
    wo.n_threads = 2;
    wo.write_flags = LGG_WRITE_NO_SYNC;
    wo.temp_fn = hook;
    wo.temp_ud = &ev;
    char out[700];
    snprintf(out, sizeof out, "%s/q.gguf", dir);
    CHECKF(lgg_quant_plan_write(p, out, &wo, &e) == LGG_OK, "%s", e.message);
    CHECK_EQ_U(check_pairs(&ev, "quant_plan_write"), 1);
    CHECK(access(out, F_OK) == 0);
    CHECK_EQ_U(temp_files_in(dir), 0);
    lgg_quant_plan_free(p);
    lgg_close(f);
}
