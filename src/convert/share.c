/* share.c -- several conversions of one checkpoint written at once (gguf
 * convert --outtype f16,q8_0,Q4_K_M): each source row is read and widened
 * once, and rounded to the `auto` type once, for all of them.
 *
 * Each output is written by its own thread, pulling its tensors in order.
 * The rows pass through a bounded cache of blocks (a tensor's rows cut in
 * pieces of about BLOCK_FLOATS floats): the first output to need a block
 * fills it (data.c's loader: every transform, and the io windows when the
 * files come through lgg_convert_io), the others read it, and it is let go
 * when every output still writing has moved past it.  An output that runs
 * ahead waits for a free block, so the fastest stays a few blocks ahead of
 * the slowest and the memory stays bounded: 3n + 2 blocks for n outputs,
 * each the rows read and, for the presets, the same rounded (2 x 2 MiB, or
 * one row when a row is larger).
 *
 * The outputs of a quantize preset write their tensors in the plan's order
 * (llama-quantize's), the others in the checkpoint's: outputs of one order
 * make a group, and each group has blocks of its own (so a row is read once
 * per order, and rounded to the auto type once for all the presets).  A
 * group holds at most all the blocks but two per other group, so no group
 * waits for ever for another; should every output wait all the same, the
 * cache grows rather than lock up.
 *
 * An output alone in its order (the only preset among plain types, or the
 * last one of its order still writing) has nobody to share its blocks
 * with: it reads its rows itself, as when written alone, where each of its
 * threads reads, widens and rounds its own rows (a block is filled by one
 * thread while the others wait). */
#include "cvint.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SHARED = 32 };
/* A block's floats (2 MiB; tests make it smaller). */
uint64_t lgg__cv_share_block = 1 << 19;
#define BLOCK_FLOATS lgg__cv_share_block

typedef struct slot {
    int used, ready, rstate; /* rstate: 0 no rounded rows, 1 being made, 2 made */
    lgg_status st, rst;      /* its filling, its rounding failed: how (err, rerr) */
    lgg_error err, rerr;
    size_t tensor;
    uint64_t group;          /* the order of the outputs reading it */
    uint64_t first, n;       /* its rows */
    uint32_t need;           /* outputs that have not moved past it */
    float *raw, *rnd;        /* the rows as read, and rounded to the auto type */
    uint64_t raw_cap, rnd_cap; /* their floats: they only grow, so a block's memory is reused, not faulted in again */
} slot;

struct cv_share {
    pthread_mutex_t mu;
    pthread_cond_t cond;
    uint32_t live;           /* outputs still writing */
    size_t n_conv, waiting;  /* converters holding it; outputs waiting for a free block */
    uint32_t known;          /* outputs whose group is known (from their first request) */
    uint64_t group[MAX_SHARED];
    slot **s;                /* each on its own: a block stays put while the array grows */
    size_t n_s;
    lgg_convert *conv[MAX_SHARED]; /* the converters, by number */
    uint32_t pins[MAX_SHARED];     /* blocks being filled from each one's map (it waits for them to leave) */
};
typedef struct cv_share cv_share;

/* Converters opened from one checkpoint with the same options but their
 * outtype list the same source rows in the same order, transformed alike. */
static int same_tensors(const lgg_convert *a, const lgg_convert *b) {
    if (a->n_t != b->n_t || a->n_shards != b->n_shards) return 0;
    for (size_t i = 0; i < a->n_t; i++) {
        const cv_tensor *x = &a->t[i], *y = &b->t[i];
        if (strcmp(x->name, y->name) || strcmp(x->src_name, y->src_name) || x->shard != y->shard ||
            x->unit != y->unit || x->n_units != y->n_units || x->row_skip != y->row_skip || x->xform != y->xform ||
            x->work != y->work || x->heads != y->heads || x->row_of != y->row_of ||
            memcmp(x->row_arg, y->row_arg, sizeof x->row_arg) || x->scale != y->scale || x->scale2 != y->scale2 ||
            x->row_scale != y->row_scale || !x->gen != !y->gen || x->zero_from != y->zero_from ||
            x->zero_first != y->zero_first || x->add != y->add ||
            x->n_stack != y->n_stack || (x->src && y->src && x->src->offset != y->src->offset))
            return 0;
        if (x->gen && memcmp(x->gen, y->gen, (size_t)(x->unit * x->n_units) * sizeof *x->gen)) return 0;
    }
    return 1;
}

lgg_status lgg_convert_share(lgg_convert *const *cv, size_t n, lgg_error *err) {
    if (!cv || n < 2 || n > MAX_SHARED)
        return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_share: 2 to %d converters", MAX_SHARED);
    for (size_t i = 0; i < n; i++) {
        if (!cv[i] || cv[i]->share)
            return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_share: converter %zu is NULL or already shared", i);
        for (size_t j = 0; j < i; j++)
            if (cv[j] == cv[i]) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_share: converter %zu is given twice", i);
        if (!same_tensors(cv[0], cv[i]))
            return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_share: converter %zu lists other tensors", i);
    }
    cv_share *s = calloc(1, sizeof *s);
    if (!s) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    s->n_s = 3 * n + 2; /* the deadlock-free minimum is 2; the rest lets the fast outputs run ahead */
    int ok = (s->s = calloc(s->n_s, sizeof *s->s)) != NULL;
    for (size_t i = 0; ok && i < s->n_s; i++) ok = (s->s[i] = calloc(1, sizeof **s->s)) != NULL;
    if (!ok) {
        for (size_t i = 0; s->s && i < s->n_s; i++) free(s->s[i]);
        free(s->s);
        free(s);
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cond, NULL);
    s->live = (uint32_t)((1ull << n) - 1);
    s->n_conv = n;
    for (size_t i = 0; i < n; i++) cv[i]->share = s, cv[i]->share_id = (uint32_t)i, s->conv[i] = cv[i];
    return LGG_OK;
}

/* Output k no longer needs block b: it is let go when nobody does. */
static int drop(slot *b, uint32_t k) {
    b->need &= ~(1u << k);
    if (b->need || !b->ready || b->rstate == 1) return 0;
    b->used = 0;
    return 1;
}

/* Output k no longer needs the blocks it has moved past: those of the
 * tensors before ti in its order (pos: each tensor's place in it, NULL
 * for the checkpoint's), and those of tensor ti ending at or before row u;
 * all of them when ti is SIZE_MAX.  Called with the lock held. */
static void pass(cv_share *s, uint32_t k, const uint32_t *pos, size_t ti, uint64_t u) {
    int freed = 0;
#define PLACE(x) (pos ? (size_t)pos[x] : (x))
    for (size_t i = 0; i < s->n_s; i++) {
        slot *b = s->s[i];
        if (!b->used || !(b->need & (1u << k))) continue;
        if (ti != SIZE_MAX && (b->tensor == ti ? b->first + b->n > u : PLACE(b->tensor) > PLACE(ti))) continue;
        freed |= drop(b, k);
    }
    if (freed) pthread_cond_broadcast(&s->cond);
#undef PLACE
}

void lgg__cv_share_leave(lgg_convert *c) { /* c is shared (lgg_convert_unshare checks) */
    cv_share *s = c->share;
    pthread_mutex_lock(&s->mu);
    if (s->live & (1u << c->share_id)) {
        s->live &= ~(1u << c->share_id);
        pass(s, c->share_id, NULL, SIZE_MAX, 0);
        pthread_cond_broadcast(&s->cond);
    }
    while (s->pins[c->share_id]) pthread_cond_wait(&s->cond, &s->mu); /* another output is reading its map */
    int last = --s->n_conv == 0;
    pthread_mutex_unlock(&s->mu);
    c->share = NULL;
    if (!last) return;
    for (size_t i = 0; i < s->n_s; i++) free(s->s[i]->raw), free(s->s[i]->rnd), free(s->s[i]);
    free(s->s);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cond);
    free(s);
}

static int fit(float **p, uint64_t *cap, uint64_t n) {
    if (n <= *cap) return 1;
    if (n < BLOCK_FLOATS) n = BLOCK_FLOATS;
    if (n > SIZE_MAX / sizeof **p) return 0;
    float *q = realloc(*p, (size_t)n * sizeof *q);
    if (!q) return 0;
    *p = q, *cap = n;
    return 1;
}

/* A free block for group g, within its share, or the cache grown when
 * every other output still writing waits for one; NULL with *grow_failed
 * when out of memory, or NULL when the caller must wait.  Called with the
 * lock held. */
static slot *free_slot(cv_share *s, uint64_t g, int *grow_failed) {
    size_t others = 0, held = 0;
    for (uint32_t k = 0; k < MAX_SHARED; k++) { /* the other groups known, each counted once */
        int first = (s->known >> k & 1) && s->group[k] != g;
        for (uint32_t j = 0; first && j < k; j++) first = !((s->known >> j & 1) && s->group[j] == s->group[k]);
        others += first;
    }
    for (size_t i = 0; i < s->n_s; i++) held += s->s[i]->used && s->s[i]->group == g;
    for (size_t i = 0; held + 2 * others < s->n_s && i < s->n_s; i++)
        if (!s->s[i]->used) return s->s[i];
    if (s->waiting + 1 < (size_t)__builtin_popcount(s->live)) return NULL;
    slot **v = realloc(s->s, (s->n_s + 1) * sizeof *v);
    if (v) s->s = v;
    if (!v || !(v[s->n_s] = calloc(1, sizeof **v))) return *grow_failed = 1, NULL;
    return v[s->n_s++];
}

/* Output k's group is g: it needs no block of another group. */
static void join(cv_share *s, uint32_t k, uint64_t g) {
    s->known |= 1u << k;
    s->group[k] = g;
    int freed = 0;
    for (size_t i = 0; i < s->n_s; i++) {
        slot *b = s->s[i];
        if (b->used && b->group != g && (b->need & (1u << k))) freed |= drop(b, k);
    }
    if (freed) pthread_cond_broadcast(&s->cond);
}

/* The outputs still writing that may need a block of group g: those of g,
 * and those whose group is not known yet. */
static uint32_t needers(const cv_share *s, uint64_t g) {
    uint32_t m = 0;
    for (uint32_t k = 0; k < MAX_SHARED; k++)
        if ((s->live >> k & 1) && (!(s->known >> k & 1) || s->group[k] == g)) m |= 1u << k;
    return m;
}

int lgg__cv_share_alone(lgg_convert *c) {
    cv_share *s = c->share;
    const uint32_t me = 1u << c->share_id;
    pthread_mutex_lock(&s->mu);
    if (!(s->known & me)) join(s, c->share_id, c->share_order);
    const int alone = needers(s, c->share_order) == me;
    if (alone) pass(s, c->share_id, NULL, SIZE_MAX, 0); /* no block of its order is needed any more */
    pthread_mutex_unlock(&s->mu);
    return alone;
}

const float *lgg__cv_share_rows(lgg_convert *c, const cv_tensor *t, uint64_t u, int rounded, const cv_share_fill *fl,
                                uint64_t *first, uint64_t *n, lgg_error *err) {
    cv_share *s = c->share;
    const size_t ti = (size_t)(t - c->t);
    const uint64_t per = t->unit < BLOCK_FLOATS ? BLOCK_FLOATS / t->unit : 1, f = u / per * per;
    const uint64_t rows = t->n_units - f < per ? t->n_units - f : per, g = c->share_order;
    pthread_mutex_lock(&s->mu);
    if (!(s->known >> c->share_id & 1)) join(s, c->share_id, g);
    pass(s, c->share_id, c->share_pos, ti, u);
    slot *b = NULL;
    int fill = 0, grow_failed = 0;
    for (;;) { /* the block, once ready; else a free one to fill; else wait and look again */
        for (size_t i = 0; i < s->n_s && !b; i++)
            if (s->s[i]->used && s->s[i]->group == g && s->s[i]->tensor == ti && s->s[i]->first == f) b = s->s[i];
        if (b && b->ready) break;
        if (!b && (b = free_slot(s, g, &grow_failed)) != NULL) {
            fill = 1;
            break;
        }
        if (grow_failed) {
            pthread_mutex_unlock(&s->mu);
            return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory converting", t->name), NULL;
        }
        s->waiting += !b; /* for a free block; else another output is filling this one */
        pthread_cond_wait(&s->cond, &s->mu);
        s->waiting -= !b;
        b = NULL;
    }
    /* Local files are read through one converter's maps, the first one still
     * writing (pinned meanwhile), so the source pages are mapped once, not
     * once per order; the io windows are each converter's own. */
    uint32_t from = c->share_id;
    if (fill) {
        b->used = 1, b->ready = b->rstate = 0, b->st = b->rst = LGG_OK;
        b->tensor = ti, b->group = g, b->first = f, b->n = rows;
        b->need = needers(s, g); /* this one included */
        if (!c->has_io) from = (uint32_t)__builtin_ctz(s->live | 1u << c->share_id);
        s->pins[from]++;
    }
    pthread_mutex_unlock(&s->mu);
    lgg_status st = LGG_OK;
    lgg_error e;
    if (fill) { /* no lock: the block is this output's until it is ready */
        lgg_convert *r = s->conv[from];
        if (!fit(&b->raw, &b->raw_cap, rows * t->unit)) st = lgg__cv_fail(&e, LGG_ERR_NOMEM, "%s: out of memory converting", t->name);
        else st = fl->load(r, &r->t[ti], f, rows, b->raw, &e);
    }
    pthread_mutex_lock(&s->mu);
    if (fill) {
        s->pins[from]--;
        b->ready = 1, b->st = st;
        if (st) b->err = e;
        pthread_cond_broadcast(&s->cond);
    }
    int round = rounded && !b->st && b->rstate == 0;
    if (round) b->rstate = 1;
    while (rounded && b->rstate == 1 && !round) pthread_cond_wait(&s->cond, &s->mu);
    pthread_mutex_unlock(&s->mu);
    if (round) {
        if (!fit(&b->rnd, &b->rnd_cap, rows * t->unit))
            st = lgg__cv_fail(&e, LGG_ERR_NOMEM, "%s: out of memory converting", t->name);
        else memcpy(b->rnd, b->raw, (size_t)(rows * t->unit) * sizeof *b->rnd), st = fl->round(t, b->rnd, rows, &e);
        pthread_mutex_lock(&s->mu);
        b->rstate = 2;
        if (st) b->rst = st, b->rerr = e;
        pthread_cond_broadcast(&s->cond);
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_lock(&s->mu);
    const int r = rounded && !b->st; /* the rounding's failure is the failure of those who read it */
    st = r ? b->rst : b->st;
    if (st && err) *err = r ? b->rerr : b->err;
    pthread_mutex_unlock(&s->mu);
    if (st) return NULL;
    *first = f, *n = rows;
    return rounded ? b->rnd : b->raw;
}
