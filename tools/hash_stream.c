/* hash_stream.c -- read ranges once, hash them on several threads.
 *
 * The whole-model digest is one sequential stream over every tensor's bytes,
 * so it cannot be split across tensors; what can run side by side is each
 * digest ("lane": one algorithm, per item or over the total).  A reader
 * thread fills a ring of fixed buffers with pread (memory stays bounded
 * whatever the file size, and nothing is mapped, so the resident set stays
 * small); every worker owns some lanes and walks all chunks in order.  The
 * wall time is then the slowest lane's, not the sum: sha256 per tensor plus
 * sha256 of the model take as long as one sha256 of the file. */
#include "hash.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

/* uuid.uuid5(uuid.NAMESPACE_URL, 'en.wikipedia.org/wiki/Llama.cpp'), the
 * namespace llama-gguf-hash hashes before the tensor data */
static const uint8_t UUID_NS[16] = {0xef, 0x00, 0x12, 0x06, 0xda, 0xdc, 0x5f, 0x6d,
                                    0xa1, 0x5f, 0x33, 0x59, 0xe5, 0x77, 0xd4, 0xe5};

struct hash_ctx {
    unsigned algos;
    XXH64_state_t *xxh;
    EVP_MD_CTX *sha1, *sha256, *uuid;
};

void hash_ctx_free(hash_ctx *c) {
    if (!c) return;
    if (c->xxh) XXH64_freeState(c->xxh);
    EVP_MD_CTX_free(c->sha1);
    EVP_MD_CTX_free(c->sha256);
    EVP_MD_CTX_free(c->uuid);
    free(c);
}

static EVP_MD_CTX *md_new(const EVP_MD *md) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (m && EVP_DigestInit_ex(m, md, NULL) != 1) {
        EVP_MD_CTX_free(m);
        return NULL;
    }
    return m;
}

hash_ctx *hash_ctx_new(unsigned algos) {
    hash_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->algos = algos;
    bool ok = true;
    if (algos & HASH_XXH64) ok = (c->xxh = XXH64_createState()) && XXH64_reset(c->xxh, 0) == XXH_OK;
    if (ok && (algos & HASH_SHA1)) ok = (c->sha1 = md_new(EVP_sha1())) != NULL;
    if (ok && (algos & HASH_SHA256)) ok = (c->sha256 = md_new(EVP_sha256())) != NULL;
    if (ok && (algos & HASH_UUID)) ok = (c->uuid = md_new(EVP_sha1())) && EVP_DigestUpdate(c->uuid, UUID_NS, 16) == 1;
    if (!ok) {
        hash_ctx_free(c);
        return NULL;
    }
    return c;
}

/* The digest calls cannot fail once the contexts exist (no engine, no
 * allocation); their results are not checked. */
void hash_ctx_update(hash_ctx *c, const void *p, size_t n) {
    if (!n) return;
    if (c->xxh) XXH64_update(c->xxh, p, n);
    if (c->sha1) EVP_DigestUpdate(c->sha1, p, n);
    if (c->sha256) EVP_DigestUpdate(c->sha256, p, n);
    if (c->uuid) EVP_DigestUpdate(c->uuid, p, n);
}

void hash_ctx_final(hash_ctx *c, hash_digest *d) {
    if (c->xxh) {
        XXH64_canonical_t can;
        XXH64_canonicalFromHash(&can, XXH64_digest(c->xxh));
        memcpy(d->xxh64, can.digest, 8);
    }
    if (c->sha1) EVP_DigestFinal_ex(c->sha1, d->sha1, NULL);
    if (c->sha256) EVP_DigestFinal_ex(c->sha256, d->sha256, NULL);
    if (c->uuid) {
        uint8_t full[20];
        EVP_DigestFinal_ex(c->uuid, full, NULL);
        memcpy(d->uuid, full, 16);
        d->uuid[6] = (uint8_t)((d->uuid[6] & 0x0f) | 0x50); /* version 5 */
        d->uuid[8] = (uint8_t)((d->uuid[8] & 0x3f) | 0x80); /* variant 0b10 */
    }
}

void hash_hex(char *out, const uint8_t *p, size_t n) {
    static const char H[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = H[p[i] >> 4];
        out[2 * i + 1] = H[p[i] & 15];
    }
    out[2 * n] = 0;
}

void hash_uuid_text(char *out, const uint8_t u[16]) {
    char hex[33];
    hash_hex(hex, u, 16);
    snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
}

/* ---- the pipeline ---- */

/* 16 slots of 512 KiB: 8 MiB in flight stays in the last-level cache, so
 * the workers read what the reader copied from there, not from DRAM (a
 * 64 MiB ring measured 1.5x slower for sha256 per tensor + model, 1.6x for
 * xxh64, on a 2-core EPYC with a 32 MiB L3). */
#define CHUNK ((size_t)512 << 10)
#define SLOTS 16

typedef struct slot {
    uint8_t *buf;
    size_t item, len;
    bool first, last; /* the item's first / last chunk (both for an empty item) */
    unsigned pending; /* workers yet to consume it */
} slot;

typedef struct lane {
    unsigned algo;
    bool per_item;
    hash_ctx *ctx;
} lane;

typedef struct pipe_state pipe_state;

typedef struct worker {
    pipe_state *ps;
    lane *lanes[8];
    unsigned n_lanes;
    bool item_lanes; /* owns at least one per-item lane */
    size_t items_done;
    pthread_t th;
} worker;

struct pipe_state {
    const hash_job *job;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    slot slots[SLOTS];
    uint64_t produced; /* chunks published */
    uint64_t bytes;    /* bytes read */
    bool eof, failed;
    unsigned exited; /* workers finished */
    char why[256];
    lane lanes[8];
    unsigned n_lanes;
    worker workers[8];
    unsigned n_workers;
    hash_digest *items; /* per-item digests */
    hash_digest *total;
};

/* Start the item's digest again (the contexts are reused across items). */
static void ctx_restart(hash_ctx *c) {
    if (c->xxh) XXH64_reset(c->xxh, 0);
    if (c->sha1) EVP_DigestInit_ex(c->sha1, EVP_sha1(), NULL);
    if (c->sha256) EVP_DigestInit_ex(c->sha256, EVP_sha256(), NULL);
}

static void lane_chunk(pipe_state *ps, lane *l, const slot *s) {
    if (!l->per_item) {
        hash_ctx_update(l->ctx, s->buf, s->len);
        return;
    }
    if (s->first) ctx_restart(l->ctx);
    hash_ctx_update(l->ctx, s->buf, s->len);
    if (s->last) hash_ctx_final(l->ctx, &ps->items[s->item]);
}

/* pread all of [off, off+n) of the range's file, or say why not. */
static int read_full(const hash_range *item, uint8_t *dst, size_t n, uint64_t off, char *why, size_t cap) {
    if (item->fd < 0) { /* no descriptor: a file read through its source */
        lgg_error e;
        memset(&e, 0, sizeof e);
        if (lgg_file_read(item->file, off, dst, n, &e) == LGG_OK) return 0;
        snprintf(why, cap, "%.200s", e.message);
        return -1;
    }
    const int fd = item->fd;
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, dst + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            snprintf(why, cap, "read failed at offset %llu: %s", (unsigned long long)(off + got), strerror(errno));
            return -1;
        }
        if (r == 0) {
            snprintf(why, cap, "the file ends at offset %llu, before the %llu bytes expected there",
                     (unsigned long long)(off + got), (unsigned long long)(n - got));
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

static void fail(pipe_state *ps, const char *why) {
    pthread_mutex_lock(&ps->mu);
    if (!ps->failed) snprintf(ps->why, sizeof ps->why, "%s", why);
    ps->failed = true;
    pthread_cond_broadcast(&ps->cv);
    pthread_mutex_unlock(&ps->mu);
}

/* Fill the slot for chunk `seq` once every worker is done with its last use. */
static int reader_fill(pipe_state *ps, uint64_t seq, size_t item, uint64_t *off) {
    const hash_range *r = &ps->job->items[item];
    slot *s = &ps->slots[seq % SLOTS];
    pthread_mutex_lock(&ps->mu);
    while (s->pending && !ps->failed) pthread_cond_wait(&ps->cv, &ps->mu);
    bool stop = ps->failed;
    pthread_mutex_unlock(&ps->mu);
    if (stop) return -1;
    size_t len = r->size - *off < CHUNK ? (size_t)(r->size - *off) : CHUNK;
    char why[256];
    if (read_full(r, s->buf, len, r->offset + *off, why, sizeof why)) {
        fail(ps, why);
        return -1;
    }
    s->item = item;
    s->len = len;
    s->first = *off == 0;
    *off += len;
    s->last = *off == r->size;
    s->pending = ps->n_workers;
    pthread_mutex_lock(&ps->mu);
    ps->produced = seq + 1;
    ps->bytes += len;
    pthread_cond_broadcast(&ps->cv);
    pthread_mutex_unlock(&ps->mu);
    return 0;
}

/* ---- a source read in one pass (standard input, a server) ----
 * The bytes come pushed, in file order, from job->stream: each is copied
 * into the slot of the item it belongs to (bytes between items dropped),
 * and a slot is published when full or when its item ends. */
typedef struct pusher {
    pipe_state *ps;
    uint64_t seq, pos; /* the next slot; the file offset of the next byte */
    size_t item;       /* the item being filled, and its bytes so far */
    uint64_t off;
    slot *cur;
} pusher;

static slot *slot_take(pusher *u) {
    pipe_state *ps = u->ps;
    slot *s = &ps->slots[u->seq % SLOTS];
    pthread_mutex_lock(&ps->mu);
    while (s->pending && !ps->failed) pthread_cond_wait(&ps->cv, &ps->mu);
    bool stop = ps->failed;
    pthread_mutex_unlock(&ps->mu);
    if (stop) return NULL;
    s->len = 0;
    s->item = u->item;
    s->first = u->off == 0;
    return s;
}

static void slot_publish(pusher *u, slot *s) {
    pipe_state *ps = u->ps;
    s->last = u->off == ps->job->items[u->item].size;
    s->pending = ps->n_workers;
    pthread_mutex_lock(&ps->mu);
    ps->produced = ++u->seq;
    ps->bytes += s->len;
    pthread_cond_broadcast(&ps->cv);
    pthread_mutex_unlock(&ps->mu);
    if (s->last) u->item++, u->off = 0;
}

/* Publish the empty items at the current position (their digests are of
 * nothing). */
static bool push_empty(pusher *u) {
    const hash_job *j = u->ps->job;
    while (u->item < j->n_items && j->items[u->item].size == 0) {
        slot *s = slot_take(u);
        if (!s) return false;
        slot_publish(u, s);
    }
    return true;
}

static int push(void *ud, const void *p, size_t n) {
    pusher *u = ud;
    const hash_job *j = u->ps->job;
    const uint8_t *b = p;
    while (n) {
        if (!push_empty(u)) return -1;
        if (u->item == j->n_items) return 0; /* past the last item: nothing to hash */
        const hash_range *r = &j->items[u->item];
        if (u->pos < r->offset) { /* padding between items */
            uint64_t k = r->offset - u->pos < n ? r->offset - u->pos : n;
            u->pos += k, b += k, n -= (size_t)k;
            continue;
        }
        if (u->pos != r->offset + u->off) {
            fail(u->ps, "the tensors overlap or are not in file order: cannot be read in one pass");
            return -1;
        }
        if (!u->cur && !(u->cur = slot_take(u))) return -1;
        size_t k = CHUNK - u->cur->len;
        if (k > n) k = n;
        if (k > r->size - u->off) k = (size_t)(r->size - u->off);
        memcpy(u->cur->buf + u->cur->len, b, k);
        u->cur->len += k, u->off += k, u->pos += k, b += k, n -= k;
        if (u->off == r->size || u->cur->len == CHUNK) {
            slot_publish(u, u->cur);
            u->cur = NULL;
        }
    }
    return 0;
}

/* Runs of items from one file, each streamed in one pass. */
static void stream_main(pipe_state *ps) {
    const hash_job *j = ps->job;
    pusher u = {ps, 0, 0, 0, 0, NULL};
    char why[256] = "";
    for (size_t a = 0; a < j->n_items;) {
        size_t z = a;
        uint64_t end = 0;
        for (; z < j->n_items && j->items[z].file == j->items[a].file && j->items[z].fd == j->items[a].fd; z++)
            if (j->items[z].offset + j->items[z].size > end) end = j->items[z].offset + j->items[z].size;
        u.pos = j->items[a].offset;
        if (j->stream(j->stream_ud, &j->items[a], j->items[a].offset, end, push, &u, why, sizeof why)) {
            fail(ps, why[0] ? why : "the read stopped");
            return;
        }
        if (!push_empty(&u)) return;
        if (u.item < z) {
            snprintf(why, sizeof why, "the input ends at offset %llu, before the %llu bytes expected there",
                     (unsigned long long)u.pos, (unsigned long long)(j->items[u.item].size - u.off));
            fail(ps, why);
            return;
        }
        a = z;
    }
    pthread_mutex_lock(&ps->mu);
    ps->eof = true;
    pthread_cond_broadcast(&ps->cv);
    pthread_mutex_unlock(&ps->mu);
}

static void *reader_main(void *arg) {
    pipe_state *ps = arg;
    uint64_t seq = 0;
    if (ps->job->stream) {
        stream_main(ps);
        return NULL;
    }
    for (size_t i = 0; i < ps->job->n_items; i++) {
        uint64_t off = 0;
        do {
            if (reader_fill(ps, seq++, i, &off)) return NULL;
        } while (off < ps->job->items[i].size);
    }
    pthread_mutex_lock(&ps->mu);
    ps->eof = true;
    pthread_cond_broadcast(&ps->cv);
    pthread_mutex_unlock(&ps->mu);
    return NULL;
}

static void *worker_main(void *arg) {
    worker *w = arg;
    pipe_state *ps = w->ps;
    for (uint64_t seq = 0;; seq++) {
        pthread_mutex_lock(&ps->mu);
        while (seq == ps->produced && !ps->eof && !ps->failed) pthread_cond_wait(&ps->cv, &ps->mu);
        bool stop = ps->failed || seq == ps->produced;
        pthread_mutex_unlock(&ps->mu);
        if (stop) break;
        slot *s = &ps->slots[seq % SLOTS];
        for (unsigned k = 0; k < w->n_lanes; k++) lane_chunk(ps, w->lanes[k], s);
        pthread_mutex_lock(&ps->mu);
        if (s->last && w->item_lanes) w->items_done = s->item + 1;
        s->pending--;
        pthread_cond_broadcast(&ps->cv);
        pthread_mutex_unlock(&ps->mu);
    }
    for (unsigned k = 0; k < w->n_lanes; k++)
        if (!w->lanes[k]->per_item) hash_ctx_final(w->lanes[k]->ctx, ps->total);
    pthread_mutex_lock(&ps->mu);
    ps->exited++;
    pthread_cond_broadcast(&ps->cv);
    pthread_mutex_unlock(&ps->mu);
    return NULL;
}

/* Relative cost per byte, to spread the lanes evenly over the workers. */
static unsigned algo_cost(unsigned a) { return a == HASH_XXH64 ? 1 : a == HASH_SHA256 ? 4 : 3; }

static int lanes_make(pipe_state *ps, unsigned threads) {
    const hash_job *j = ps->job;
    static const unsigned ORDER[4] = {HASH_SHA256, HASH_SHA1, HASH_UUID, HASH_XXH64};
    for (int per_item = 1; per_item >= 0; per_item--)
        for (int k = 0; k < 4; k++) {
            unsigned a = ORDER[k];
            if (!((per_item ? j->item_algos & ~(unsigned)HASH_UUID : j->total_algos) & a)) continue;
            lane *l = &ps->lanes[ps->n_lanes++];
            l->algo = a;
            l->per_item = per_item;
            if (!(l->ctx = hash_ctx_new(a))) return -1;
        }
    ps->n_workers = ps->n_lanes < threads ? ps->n_lanes : threads;
    if (!ps->n_workers) ps->n_workers = 1;
    unsigned load[8] = {0};
    for (unsigned i = 0; i < ps->n_lanes; i++) { /* costliest first, to the least loaded */
        unsigned best = 0;
        for (unsigned w = 1; w < ps->n_workers; w++)
            if (load[w] < load[best]) best = w;
        worker *w = &ps->workers[best];
        w->lanes[w->n_lanes++] = &ps->lanes[i];
        w->item_lanes |= ps->lanes[i].per_item;
        load[best] += algo_cost(ps->lanes[i].algo);
    }
    return 0;
}

/* The smallest count of items every per-item worker has finished. */
static size_t items_ready(const pipe_state *ps) {
    size_t done = ps->job->n_items;
    for (unsigned w = 0; w < ps->n_workers; w++)
        if (ps->workers[w].item_lanes && ps->workers[w].items_done < done) done = ps->workers[w].items_done;
    return done;
}

/* In the calling thread: report items in order as they complete, and the
 * progress every 200 ms, until every worker has stopped. */
static void report_loop(pipe_state *ps) {
    const hash_job *j = ps->job;
    size_t next = 0;
    pthread_mutex_lock(&ps->mu);
    for (;;) {
        bool all_done = ps->exited == ps->n_workers; /* read before `ready`: no item is left behind */
        size_t ready = j->item_algos ? items_ready(ps) : 0;
        while (next < ready && !ps->failed) {
            pthread_mutex_unlock(&ps->mu);
            if (j->on_item) j->on_item(j->ud, next, &ps->items[next]);
            next++;
            pthread_mutex_lock(&ps->mu);
        }
        if (all_done) break;
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 200000000L;
        if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        int rc = pthread_cond_timedwait(&ps->cv, &ps->mu, &ts);
        if (rc == ETIMEDOUT && j->on_progress) {
            uint64_t b = ps->bytes;
            pthread_mutex_unlock(&ps->mu);
            j->on_progress(j->ud, b);
            pthread_mutex_lock(&ps->mu);
        }
    }
    pthread_mutex_unlock(&ps->mu);
}

/* threads == 1: the same lanes, one chunk at a time in this thread. */
static int run_serial(pipe_state *ps) {
    const hash_job *j = ps->job;
    slot *s = &ps->slots[0];
    uint64_t bytes = 0;
    for (size_t i = 0; i < j->n_items; i++) {
        uint64_t off = 0;
        do {
            size_t len = j->items[i].size - off < CHUNK ? (size_t)(j->items[i].size - off) : CHUNK;
            if (read_full(&j->items[i], s->buf, len, j->items[i].offset + off, ps->why, sizeof ps->why)) return -1;
            s->item = i, s->len = len, s->first = off == 0;
            off += len;
            s->last = off == j->items[i].size;
            for (unsigned k = 0; k < ps->n_lanes; k++) lane_chunk(ps, &ps->lanes[k], s);
            if ((bytes += len) % (CHUNK * 128) == 0 && j->on_progress) j->on_progress(j->ud, bytes);
        } while (off < j->items[i].size);
        if (j->item_algos && j->on_item) j->on_item(j->ud, i, &ps->items[i]);
    }
    for (unsigned k = 0; k < ps->n_lanes; k++)
        if (!ps->lanes[k].per_item) hash_ctx_final(ps->lanes[k].ctx, ps->total);
    return 0;
}

static int run_threads(pipe_state *ps) {
    pthread_t reader;
    unsigned started = 0;
    for (; started < ps->n_workers; started++) {
        ps->workers[started].ps = ps;
        if (pthread_create(&ps->workers[started].th, NULL, worker_main, &ps->workers[started])) break;
    }
    bool reader_ok = started == ps->n_workers && !pthread_create(&reader, NULL, reader_main, ps);
    if (!reader_ok) {
        fail(ps, "cannot start a thread");
        pthread_mutex_lock(&ps->mu);
        ps->exited += ps->n_workers - started; /* never started: count them out */
        pthread_mutex_unlock(&ps->mu);
    }
    report_loop(ps);
    for (unsigned w = 0; w < started; w++) pthread_join(ps->workers[w].th, NULL);
    if (reader_ok) pthread_join(reader, NULL);
    return ps->failed ? -1 : 0;
}

int hash_stream(const hash_job *job, hash_digest *total, char *why, size_t cap) {
    pipe_state *ps = calloc(1, sizeof *ps);
    if (!ps) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    ps->job = job;
    ps->total = total;
    memset(total, 0, sizeof *total);
    unsigned threads = job->threads ? job->threads : 1;
    /* One digest gains nothing from a reader thread beside it: the copy is
     * a tenth of a sha256, and handing chunks across cores costs as much. */
    unsigned lanes = (unsigned)__builtin_popcount(job->total_algos) +
                     (unsigned)__builtin_popcount(job->item_algos & ~(unsigned)HASH_UUID);
    if (lanes <= 1) threads = 1;
    if (job->stream && threads == 1) threads = 2; /* the pushed bytes need the reader thread */
    unsigned n_slots = threads == 1 ? 1 : SLOTS;
    int rc = -1;
    bool ok = !pthread_mutex_init(&ps->mu, NULL);
    if (ok && pthread_cond_init(&ps->cv, NULL)) {
        pthread_mutex_destroy(&ps->mu);
        ok = false;
    }
    snprintf(ps->why, sizeof ps->why, "out of memory");
    if (ok && job->item_algos && !(ps->items = calloc(job->n_items ? job->n_items : 1, sizeof *ps->items))) goto out;
    for (unsigned i = 0; ok && i < n_slots; i++)
        if (!(ps->slots[i].buf = malloc(CHUNK))) goto out;
    if (!ok || lanes_make(ps, threads)) goto out;
    for (size_t i = 0; i < job->n_items; i++)
        if (job->items[i].fd >= 0) posix_fadvise(job->items[i].fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    rc = threads == 1 ? run_serial(ps) : run_threads(ps);
out:
    if (rc) snprintf(why, cap, "%s", ps->why);
    for (unsigned i = 0; i < ps->n_lanes; i++) hash_ctx_free(ps->lanes[i].ctx);
    for (unsigned i = 0; i < SLOTS; i++) free(ps->slots[i].buf);
    free(ps->items);
    if (ok) {
        pthread_cond_destroy(&ps->cv);
        pthread_mutex_destroy(&ps->mu);
    }
    free(ps);
    return rc;
}
