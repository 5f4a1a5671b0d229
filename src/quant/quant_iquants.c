/* quant_iquants.c -- the grid ("IQ") quantizers: IQ2_XXS, IQ2_XS, IQ2_S,
 * IQ3_XXS, IQ3_S, IQ1_S, IQ1_M.
 *
 * Values are quantized in groups of 8 (IQ2) or 4 (IQ3) magnitudes, each
 * group coded as an index into the format's grid (iq_tables.c); signs are
 * stored apart.  For a trial scale every magnitude is rounded to its level
 * l = round((x/scale - 1)/2); if the resulting point is not on the grid, the
 * best of its precomputed grid neighbours (weighted distance) is used.  The
 * search tables are derived from the grid once per type (pthread_once):
 *   pos[]    each grid point as odd levels 2l+1 (int8 per coordinate)
 *   map[]    packed levels -> grid index, or -(offset+1) into nbr[]
 *   nbr[]    per off-grid point: count, then the grid points at its nwant
 *            smallest distinct squared distances, by distance then index
 * Arithmetic follows ggml's quantizers in the same order. */
#include "quant/quant_internal.h"
#include "quant/iq_tables.h"

#include <float.h>
#include <pthread.h>

#define QK_K LGG__QK_K

enum { G_IQ2XXS, G_IQ2XS, G_IQ2S, G_IQ3XXS, G_IQ3S, G_IQ1S, G_COUNT };

typedef struct iqgrid {
    int size;        /* grid points */
    int dim;         /* coordinates per point (8 or 4) */
    int bits;        /* bits per coordinate in a packed index (2 or 3) */
    int nwant;       /* distinct distances kept as neighbours */
    int map_size;
    int8_t *pos;     /* size * dim */
    int32_t *map;    /* map_size */
    uint16_t *nbr;
    bool ok;
} iqgrid;

static iqgrid GRIDS[G_COUNT];
static pthread_once_t ONCE[G_COUNT] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
                                       PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

/* level (0..3 or 0..7) of a grid byte: rank among the format's magnitudes */
static int level_of(const uint8_t *alphabet, int n, uint8_t v) {
    for (int i = 0; i < n; i++)
        if (alphabet[i] == v) return i;
    return -1;
}

static void grid_build(int g) {
    iqgrid *G = &GRIDS[g];
    const uint8_t *bytes;
    switch (g) {
    case G_IQ2XXS: *G = (iqgrid){256, 8, 2, 2, 43692, 0, 0, 0, 0}; bytes = (const uint8_t *)lgg__iq2xxs_grid; break;
    case G_IQ2XS: *G = (iqgrid){512, 8, 2, 2, 43692, 0, 0, 0, 0}; bytes = (const uint8_t *)lgg__iq2xs_grid; break;
    case G_IQ2S: *G = (iqgrid){1024, 8, 2, 1, 43692, 0, 0, 0, 0}; bytes = (const uint8_t *)lgg__iq2s_grid; break;
    case G_IQ3XXS: *G = (iqgrid){256, 4, 3, 2, 4096, 0, 0, 0, 0}; bytes = (const uint8_t *)lgg__iq3xxs_grid; break;
    case G_IQ3S: *G = (iqgrid){512, 4, 3, 3, 4096, 0, 0, 0, 0}; bytes = (const uint8_t *)lgg__iq3s_grid; break;
    default: *G = (iqgrid){LGG__NGRID_IQ1S, 8, 2, 3, 43692, 0, 0, 0, 0}; bytes = (const uint8_t *)lgg__iq1s_grid; break;
    }
    const int n = G->size, dim = G->dim, nlev = 1 << G->bits;
    /* the magnitudes in increasing order (grid data is little-endian words) */
    uint8_t alpha[8];
    int na = 0;
    for (int k = 0; k < n * dim; k++) {
        const int word = dim, idx = k / word, b = k % word;
        const uint8_t v = lgg__host_is_big() ? bytes[idx * word + (word - 1 - b)] : bytes[k];
        if (level_of(alpha, na, v) < 0) {
            if (na == nlev) return;
            alpha[na++] = v;
        }
    }
    /* ordered as signed bytes: IQ1's alphabet is {-1, 0, +1}; the IQ2/IQ3
     * magnitudes are all below 0x80, where both orders agree */
    for (int i = 1; i < na; i++)
        for (int j = i; j > 0 && (int8_t)alpha[j - 1] > (int8_t)alpha[j]; j--) {
            const uint8_t t = alpha[j];
            alpha[j] = alpha[j - 1];
            alpha[j - 1] = t;
        }
    G->pos = lgg__alloc(NULL, (size_t)n * (size_t)dim);
    G->map = lgg__calloc(NULL, (size_t)G->map_size, sizeof(int32_t));
    int *dist = lgg__calloc(NULL, (size_t)n, sizeof(int));
    if (!G->pos || !G->map || !dist) goto fail;
    for (int i = 0; i < G->map_size; i++) G->map[i] = -1;
    for (int p = 0; p < n; p++) {
        int index = 0;
        for (int k = 0; k < dim; k++) {
            const uint8_t v = lgg__host_is_big() ? bytes[p * dim + (dim - 1 - k)] : bytes[p * dim + k];
            const int l = level_of(alpha, na, v);
            G->pos[p * dim + k] = (int8_t)(2 * l + 1);
            index |= l << (G->bits * k);
        }
        if (index >= G->map_size) goto fail;
        G->map[index] = p;
    }
    size_t cap = 1 << 16, used = 0;
    G->nbr = lgg__alloc(NULL, cap * sizeof(uint16_t));
    if (!G->nbr) goto fail;
    const int mask = nlev - 1;
    for (int i = 0; i < G->map_size; i++) {
        if (G->map[i] >= 0) continue;
        int8_t pt[8];
        bool reachable = true;
        for (int k = 0; k < dim; k++) {
            const int l = (i >> (G->bits * k)) & mask;
            pt[k] = (int8_t)(2 * l + 1);
            reachable = reachable && (g != G_IQ1S || l < na);
        }
        /* IQ1 packs 3 levels in 2 bits: points with a level 3 are never looked
         * up, and skipping them cuts the build by ~9x (their map stays -1) */
        if (!reachable) continue;
        /* the nwant smallest distinct distances */
        int kept[3], nk = 0;
        for (int p = 0; p < n; p++) {
            int d2 = 0;
            for (int k = 0; k < dim; k++) {
                const int d = G->pos[p * dim + k] - pt[k];
                d2 += d * d;
            }
            dist[p] = d2;
            int at = 0;
            while (at < nk && kept[at] < d2) at++;
            if (at < nk && kept[at] == d2) continue;
            if (at >= G->nwant) continue;
            for (int s = (nk < G->nwant ? nk : G->nwant - 1); s > at; s--) kept[s] = kept[s - 1];
            kept[at] = d2;
            if (nk < G->nwant) nk++;
        }
        size_t count = 0;
        for (int p = 0; p < n; p++)
            if (dist[p] <= kept[nk - 1]) count++;
        if (used + 1 + count > cap) {
            size_t ncap = cap;
            while (used + 1 + count > ncap) ncap *= 2;
            uint16_t *nb = lgg__realloc(NULL, G->nbr, cap * sizeof(uint16_t), ncap * sizeof(uint16_t));
            if (!nb) goto fail;
            G->nbr = nb;
            cap = ncap;
        }
        G->map[i] = -(int32_t)(used + 1);
        G->nbr[used++] = (uint16_t)count;
        for (int s = 0; s < nk; s++)
            for (int p = 0; p < n; p++)
                if (dist[p] == kept[s]) G->nbr[used++] = (uint16_t)p;
    }
    lgg__free(NULL, dist);
    G->ok = true;
    return;
fail:
    lgg__free(NULL, dist);
    lgg__free(NULL, G->pos);
    lgg__free(NULL, G->map);
    lgg__free(NULL, G->nbr);
    G->pos = NULL;
    G->map = NULL;
    G->nbr = NULL;
}

static void build_iq2xxs(void) { grid_build(G_IQ2XXS); }
static void build_iq2xs(void) { grid_build(G_IQ2XS); }
static void build_iq2s(void) { grid_build(G_IQ2S); }
static void build_iq3xxs(void) { grid_build(G_IQ3XXS); }
static void build_iq3s(void) { grid_build(G_IQ3S); }
static void build_iq1s(void) { grid_build(G_IQ1S); }

static int grid_of(uint32_t type) {
    switch (type) {
    case LGG_TYPE_IQ2_XXS: return G_IQ2XXS;
    case LGG_TYPE_IQ2_XS: return G_IQ2XS;
    case LGG_TYPE_IQ2_S: return G_IQ2S;
    case LGG_TYPE_IQ3_XXS: return G_IQ3XXS;
    case LGG_TYPE_IQ3_S: return G_IQ3S;
    case LGG_TYPE_IQ1_S:
    case LGG_TYPE_IQ1_M: return G_IQ1S;
    default: return -1;
    }
}

bool lgg__iq_init(uint32_t type) {
    static void (*const build[G_COUNT])(void) = {build_iq2xxs, build_iq2xs, build_iq2s, build_iq3xxs, build_iq3s,
                                                   build_iq1s};
    const int g = grid_of(type);
    if (g < 0) return true;
    pthread_once(&ONCE[g], build[g]);
    return GRIDS[g].ok;
}

/* ---- search helpers ---- */

/* best neighbour of off-grid point `slot` for xval at `scale`: sets L (levels) */
static int best_neighbour(const iqgrid *G, int32_t slot, const float *xval, const float *w, float scale, int8_t *L) {
    const uint16_t *nb = G->nbr + (-slot - 1);
    const int count = nb[0], dim = G->dim;
    float best = FLT_MAX;
    int gi = -1;
    for (int j = 1; j <= count; j++) {
        const int8_t *pg = G->pos + (size_t)nb[j] * (size_t)dim;
        float d2 = 0;
        for (int i = 0; i < dim; i++) {
            const float q = pg[i];
            const float diff = scale * q - xval[i];
            d2 += w[i] * diff * diff;
        }
        if (d2 < best) {
            best = d2;
            gi = nb[j];
        }
    }
    if (gi < 0) return -1;
    const int8_t *pg = G->pos + (size_t)gi * (size_t)dim;
    for (int i = 0; i < dim; i++) L[i] = (int8_t)((pg[i] - 1) / 2);
    return gi;
}

/* levels of xval at inverse scale id, clamped to 0..kmax-1, and their packed index */
static int levels(const iqgrid *G, const float *xval, float id, int kmax, int8_t *L) {
    int u = 0;
    for (int i = 0; i < G->dim; i++) {
        int l = lgg__nearest_int(0.5f * (id * xval[i] - 1));
        l = l < 0 ? 0 : l > kmax - 1 ? kmax - 1 : l;
        L[i] = (int8_t)l;
        u |= l << (G->bits * i);
    }
    return u;
}

/* packed index of levels L, or -1 if a level does not fit its bits */
static int packed(const iqgrid *G, const int8_t *L) {
    int u = 0;
    for (int i = 0; i < G->dim; i++) {
        if (L[i] < 0 || L[i] >= (1 << G->bits)) return -1;
        u |= L[i] << (G->bits * i);
    }
    return u;
}

/* grid index of levels L, or -1 if off the grid */
static int on_grid(const iqgrid *G, const int8_t *L) {
    const int u = packed(G, L);
    return u < 0 || u >= G->map_size ? -1 : G->map[u];
}

static void fit(const float *w, const float *xval, const int8_t *L, int n, float *sqx, float *sq2) {
    float sumqx = 0, sumq2 = 0;
    for (int i = 0; i < n; i++) {
        const float q = (float)(2 * L[i] + 1);
        sumqx += w[i] * xval[i] * q;
        sumq2 += w[i] * q * q;
    }
    *sqx = sumqx;
    *sq2 = sumq2;
}

/* magnitudes and sign bits of 8 values; with `parity`, an odd number of
 * negatives is made even by flipping the least important value (7 bits kept) */
static uint8_t signs8(const float *xb, const float *w, float *xval, bool parity) {
    int nflip = 0;
    uint8_t s = 0;
    for (int i = 0; i < 8; i++) {
        if (xb[i] >= 0) xval[i] = xb[i];
        else {
            xval[i] = -xb[i];
            nflip++;
            s |= (uint8_t)(1 << i);
        }
    }
    if (!parity) return s;
    if (nflip % 2) {
        int imin = 0;
        float mn = w[0] * xb[0] * xb[0];
        for (int i = 1; i < 8; i++) {
            const float a = w[i] * xb[i] * xb[i];
            if (a < mn) {
                mn = a;
                imin = i;
            }
        }
        xval[imin] = -xval[imin];
        s ^= (uint8_t)(1 << imin);
    }
    return s & 127;
}

/* The common scale search of IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S over one block of
 * n values (n/dim groups).  Returns false if a point is off the grid (cannot
 * happen with consistent tables). */
static bool search(const iqgrid *G, int n, int kmax, int nstep, float step, const float *xval, const float *w,
                   const float *waux, float max, bool on_grid_init, bool skip_on_grid, int8_t *L, float *pscale) {
    const int dim = G->dim, ng = n / dim;
    int8_t Laux[32];
    bool on[8], on_aux[8];
    float best = 0;
    float scale = max / (float)(2 * kmax - 1);
    for (int k = 0; k < ng; k++) on[k] = on_grid_init;
    for (int is = -nstep; is <= nstep; is++) {
        const float id = ((float)(2 * kmax - 1) + (float)is * step) / max;
        const float this_scale = 1 / id;
        for (int k = 0; k < ng; k++) {
            const int u = levels(G, xval + dim * k, id, kmax, Laux + dim * k);
            on_aux[k] = true;
            if (G->map[u] < 0) {
                on_aux[k] = false;
                if (best_neighbour(G, G->map[u], xval + dim * k, waux + dim * k, this_scale, Laux + dim * k) < 0)
                    return false;
            }
        }
        float sumqx, sumq2;
        fit(w, xval, Laux, n, &sumqx, &sumq2);
        if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
            scale = sumqx / sumq2;
            best = scale * sumqx;
            memcpy(L, Laux, (size_t)n);
            memcpy(on, on_aux, sizeof on);
        }
    }
    int n_off = 0;
    for (int k = 0; k < ng; k++) n_off += !on[k];
    if (n_off > 0 && scale > 0) {
        const float id = 1 / scale;
        for (int k = 0; k < ng; k++) {
            if (skip_on_grid && on[k]) continue;
            const int u = levels(G, xval + dim * k, id, kmax, L + dim * k);
            if (G->map[u] < 0 && best_neighbour(G, G->map[u], xval + dim * k, waux + dim * k, scale, L + dim * k) < 0)
                return false;
        }
        float sumqx, sumq2;
        fit(w, xval, L, n, &sumqx, &sumq2);
        if (sumq2 > 0) scale = sumqx / sumq2;
    }
    *pscale = scale;
    return true;
}

static float vmax(const float *v, int n) {
    float m = v[0];
    for (int i = 1; i < n; i++) m = m > v[i] ? m : v[i];
    return m;
}

static float block_sigma2(const float *x, float mult) {
    float s = 0;
    for (int i = 0; i < QK_K; i++) s += x[i] * x[i];
    return mult * s / QK_K;
}

/* One sub-block of n values (a multiple of 8): its weights w (the imatrix's
 * qw * sqrt(sigma2 + x^2), or without one x^2, or 0.25 sigma2 + x^2 for
 * IQ2_S: `quarter`), their square roots waux, the magnitudes xval with the
 * sign bytes bsig (signs8), and the largest magnitude, returned. */
static float sub_prep(const float *xb, const float *qw, int n, float sigma2, bool quarter, bool parity, float *w,
                      float *waux, float *xval, uint8_t *bsig) {
    if (qw) {
        for (int i = 0; i < n; i++) w[i] = qw[i] * sqrtf(sigma2 + xb[i] * xb[i]);
    } else if (quarter) {
        for (int i = 0; i < n; i++) w[i] = 0.25f * sigma2 + xb[i] * xb[i];
    } else {
        for (int i = 0; i < n; i++) w[i] = xb[i] * xb[i];
    }
    for (int i = 0; i < n; i++) waux[i] = sqrtf(w[i]);
    for (int k = 0; k < n / 8; k++) bsig[k] = signs8(xb + 8 * k, w + 8 * k, xval + 8 * k, parity);
    return vmax(xval, n);
}

/* A negative scale found by the search: flip it and the k sign bytes
 * (`mask`: 127 where the eighth sign is implied by parity). */
static float unflip(float scale, uint8_t *bsig, int k, uint8_t mask) {
    if (scale >= 0) return scale;
    for (int i = 0; i < k; i++) bsig[i] = (uint8_t)(~bsig[i] & mask);
    return -scale;
}

static inline int scale4(float id, float s) {
    int l = lgg__nearest_int(0.5f * (id * s - 1));
    return l < 0 ? 0 : l > 15 ? 15 : l;
}


/* ==== IQ2_XXS: d, then per 32 values two words: 4 grid bytes; 4x7 sign bits + 4-bit scale ==== */
static bool iq2_xxs_block(const iqgrid *G, const float *xbl, const float *qwb, uint8_t *b) {
    const int kmax = 3;
    float scales[QK_K / 32], w[32], xval[32], waux[32];
    int8_t L[32], Laux[32];
    uint8_t bsig[4];
    uint32_t q2[16];
    lgg__put_f16(b, 0.f);
    memset(q2, 0, sizeof q2);
    float max_scale = 0;
    const float sigma2 = block_sigma2(xbl, 1);
    for (int ib = 0; ib < QK_K / 32; ib++) {
        const float max = sub_prep(xbl + 32 * ib, qwb + 32 * ib, 32, sigma2, false, true, w, waux, xval, bsig);
        if (max < 1e-15f) {
            scales[ib] = 0;
            continue;
        }
        float scale = lgg__make_qp_quants(32, kmax + 1, xval, (uint8_t *)L, w);
        const float eff_max = scale * (float)kmax;
        if (eff_max <= 0) {
            scales[ib] = 0;
            continue;
        }
        float best = 0;
        for (int is = -6; is <= 6; is++) {
            const float id = ((float)(2 * kmax - 1) + (float)is * 0.1f) / eff_max;
            const float this_scale = 1 / id;
            for (int k = 0; k < 4; k++) {
                const int u = levels(G, xval + 8 * k, id, kmax, Laux + 8 * k);
                if (G->map[u] < 0 &&
                    best_neighbour(G, G->map[u], xval + 8 * k, waux + 8 * k, this_scale, Laux + 8 * k) < 0)
                    return false;
            }
            float sumqx, sumq2;
            fit(w, xval, Laux, 32, &sumqx, &sumq2);
            if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
                scale = sumqx / sumq2;
                best = scale * sumqx;
                memcpy(L, Laux, 32);
            }
        }
        if (scale > 0) {
            const float id = 1 / scale;
            for (int k = 0; k < 4; k++) {
                const int u = levels(G, xval + 8 * k, id, kmax, L + 8 * k);
                if (G->map[u] < 0 && best_neighbour(G, G->map[u], xval + 8 * k, waux + 8 * k, scale, L + 8 * k) < 0)
                    return false;
            }
            float sumqx, sumq2;
            fit(w, xval, L, 32, &sumqx, &sumq2);
            if (sumq2 > 0) scale = sumqx / sumq2;
        }
        scale = unflip(scale, bsig, 4, 127);
        for (int k = 0; k < 4; k++) {
            const int gi = on_grid(G, L + 8 * k);
            if (gi < 0) return false;
            q2[2 * ib] |= (uint32_t)gi << (8 * k);
            q2[2 * ib + 1] |= (uint32_t)bsig[k] << (7 * k);
        }
        scales[ib] = scale;
        max_scale = max_scale > scale ? max_scale : scale;
    }
    if (max_scale == 0.0f) {
        memset(b + 2, 0, 64);
        return true;
    }
    const float d = max_scale / 31;
    lgg__put_f16(b, d);
    const float id = 1 / d;
    for (int ib = 0; ib < QK_K / 32; ib++) q2[2 * ib + 1] |= (uint32_t)scale4(id, scales[ib]) << 28;
    for (int i = 0; i < 16; i++) lgg__put32(b + 2 + 4 * i, q2[i]);
    return true;
}

/* ==== IQ2_XS: d, 32 u16 (9-bit grid index | 7 sign bits << 9), scales[8] ==== */
static bool iq2_xs_block(const iqgrid *G, const float *xbl, const float *qwb, uint8_t *b) {
    float scales[QK_K / 16], w[16], xval[16], waux[16];
    int8_t L[16];
    uint8_t bsig[2];
    uint16_t q2[32];
    lgg__put_f16(b, 0.f);
    memset(q2, 0, sizeof q2);
    memset(b + 66, 0, 8);
    float max_scale = 0;
    const float sigma2 = block_sigma2(xbl, 1);
    for (int ib = 0; ib < QK_K / 16; ib++) {
        const float max = sub_prep(xbl + 16 * ib, qwb + 16 * ib, 16, sigma2, false, true, w, waux, xval, bsig);
        memset(L, 0, 16);
        if (max < 1e-15f) {
            scales[ib] = 0;
            continue;
        }
        float scale;
        if (!search(G, 16, 3, 9, 0.1f, xval, w, waux, max, true, true, L, &scale)) return false;
        scale = unflip(scale, bsig, 2, 127);
        for (int k = 0; k < 2; k++) {
            const int gi = on_grid(G, L + 8 * k);
            if (gi < 0) return false;
            q2[2 * ib + k] = (uint16_t)(gi | (bsig[k] << 9));
        }
        scales[ib] = scale;
        max_scale = max_scale > scale ? max_scale : scale;
    }
    if (max_scale == 0.0f) {
        memset(b + 2, 0, 64);
        return true;
    }
    const float d = max_scale / 31;
    lgg__put_f16(b, d);
    const float id = 1 / d;
    for (int ib = 0; ib < QK_K / 16; ib++) {
        const int l = scale4(id, scales[ib]);
        if (ib % 2 == 0) b[66 + ib / 2] = (uint8_t)l;
        else b[66 + ib / 2] |= (uint8_t)(l << 4);
    }
    for (int i = 0; i < 32; i++) lgg__put16(b + 2 + 2 * i, q2[i]);
    return true;
}

/* ==== IQ2_S: d, qs[32] grid low bytes, signs[32], qh[8], scales[8] ==== */
static bool iq2_s_block(const iqgrid *G, const float *xbl, const float *qwb, uint8_t *b) {
    float scales[QK_K / 16], w[16], xval[16], waux[16];
    int8_t L[16];
    uint8_t bsig[2];
    uint8_t *qs = b + 2, *qh = b + 66, *sc = b + 74;
    memset(b, 0, 82);
    float max_scale = 0;
    const float sigma2 = block_sigma2(xbl, 2);
    for (int ib = 0; ib < QK_K / 16; ib++) {
        const float max =
            sub_prep(xbl + 16 * ib, qwb ? qwb + 16 * ib : NULL, 16, sigma2, true, false, w, waux, xval, bsig);
        memset(L, 0, 16);
        if (max < 1e-8f) {
            scales[ib] = 0;
            continue;
        }
        float scale;
        if (!search(G, 16, 3, 9, 0.1f, xval, w, waux, max, true, true, L, &scale)) return false;
        scale = unflip(scale, bsig, 2, 255);
        for (int k = 0; k < 2; k++) {
            const int gi = on_grid(G, L + 8 * k);
            if (gi < 0) return false;
            const int i8 = 2 * ib + k;
            qs[i8] = (uint8_t)(gi & 255);
            qh[i8 / 4] |= (uint8_t)((gi >> 8) << 2 * (i8 % 4));
            qs[QK_K / 8 + i8] = bsig[k];
        }
        scales[ib] = scale;
        max_scale = max_scale > scale ? max_scale : scale;
    }
    if (max_scale == 0.0f) return true;
    const float d = max_scale / 31;
    lgg__put_f16(b, d * 0.9875f);
    const float id = 1 / d;
    for (int ib = 0; ib < QK_K / 16; ib++) {
        const int l = scale4(id, scales[ib]);
        if (ib % 2 == 0) sc[ib / 2] = (uint8_t)l;
        else sc[ib / 2] |= (uint8_t)(l << 4);
    }
    return true;
}

/* ==== IQ3_XXS: d, 64 grid bytes, 8 words (4x7 sign bits | 4-bit scale << 28) ==== */
static bool iq3_xxs_block(const iqgrid *G, const float *xbl, const float *qwb, uint8_t *b) {
    float scales[QK_K / 32], w[32], xval[32], waux[32];
    int8_t L[32];
    uint8_t bsig[8];
    uint8_t q3[96];
    uint32_t ss[8];
    lgg__put_f16(b, 0.f);
    memset(q3, 0, sizeof q3);
    memset(ss, 0, sizeof ss);
    float max_scale = 0;
    const float sigma2 = block_sigma2(xbl, 2);
    for (int ib = 0; ib < QK_K / 32; ib++) {
        const float max =
            sub_prep(xbl + 32 * ib, qwb ? qwb + 32 * ib : NULL, 32, sigma2, false, true, w, waux, xval, bsig);
        memset(L, 0, 32);
        if (max < 1e-8f) {
            scales[ib] = 0;
            continue;
        }
        float scale;
        if (!search(G, 32, 8, 15, 0.2f, xval, w, waux, max, true, true, L, &scale)) return false;
        scale = unflip(scale, bsig, 4, 127);
        for (int k = 0; k < 8; k++) {
            const int gi = on_grid(G, L + 4 * k);
            if (gi < 0) return false;
            q3[8 * ib + k] = (uint8_t)gi;
        }
        ss[ib] = (uint32_t)bsig[0] | (uint32_t)bsig[1] << 7 | (uint32_t)bsig[2] << 14 | (uint32_t)bsig[3] << 21;
        scales[ib] = scale;
        max_scale = max_scale > scale ? max_scale : scale;
    }
    if (max_scale == 0.0f) {
        memset(b + 2, 0, 96);
        return true;
    }
    const float d = max_scale / 31;
    lgg__put_f16(b, d * 1.0125f);
    const float id = 1 / d;
    for (int ib = 0; ib < QK_K / 32; ib++) ss[ib] |= (uint32_t)scale4(id, scales[ib]) << 28;
    memcpy(b + 2, q3, 64);
    for (int i = 0; i < 8; i++) lgg__put32(b + LGG__IQ3_XXS_SIGNS + 4 * i, ss[i]);
    return true;
}

/* ==== IQ3_S: d, qs[64], qh[8], signs[32], scales[4] ====
 * As in ggml, a skipped (all-zero) 32-value block does not advance the qs
 * and signs write positions. */
static bool iq3_s_block(const iqgrid *G, const float *xbl, const float *qwb, uint8_t *b) {
    float scales[QK_K / 32], w[32], xval[32], waux[32];
    int8_t L[32];
    uint8_t bsig[4];
    memset(b, 0, 110);
    uint8_t *qs = b + 2, *qh = b + 66, *signs = b + 74, *sc = b + 106;
    float max_scale = 0;
    const float sigma2 = block_sigma2(xbl, 2);
    for (int ib = 0; ib < QK_K / 32; ib++) {
        const float max =
            sub_prep(xbl + 32 * ib, qwb ? qwb + 32 * ib : NULL, 32, sigma2, false, false, w, waux, xval, bsig);
        memset(L, 0, 32);
        if (max == 0.0f) {
            scales[ib] = 0;
            continue;
        }
        float scale;
        if (!search(G, 32, 8, 9, 0.2f, xval, w, waux, max, false, false, L, &scale)) return false;
        scale = unflip(scale, bsig, 4, 255);
        for (int k = 0; k < 8; k++) {
            const int gi = on_grid(G, L + 4 * k);
            if (gi < 0) return false;
            qs[k] = (uint8_t)(gi & 255);
            qh[(ib * 8 + k) / 8] |= (uint8_t)((gi >> 8) << ((ib * 8 + k) % 8));
        }
        qs += 8;
        for (int k = 0; k < 4; k++) signs[k] = bsig[k];
        signs += 4;
        scales[ib] = scale;
        max_scale = max_scale > scale ? max_scale : scale;
    }
    if (max_scale == 0.0f) return true;
    const float d = max_scale / 31;
    lgg__put_f16(b, d * 1.033f);
    const float id = 1 / d;
    for (int ib = 0; ib < QK_K / 32; ib += 2)
        sc[ib / 2] = (uint8_t)(scale4(id, scales[ib]) | (scale4(id, scales[ib + 1]) << 4));
    return true;
}

/* ==== IQ1_S and IQ1_M ====
 * Each group of 8 values is coded by a ternary grid point (levels 0,1,2 for
 * -1,0,+1) and a block-wide shift of +-delta, so a value reconstructs as
 * scale * (level - 1 +- delta).  With three levels the weighted least-squares
 * fit is solved exactly: after sorting the values, every split into a low,
 * middle and high run is tried, from prefix sums (IQ1_S) or, because IQ1_M
 * lets each half-block pick its own shift, by summing each split afresh. */

typedef struct vpair {
    float v;
    int i;
} vpair;

/* glibc's qsort on a small array is a top-down merge sort that keeps the left
 * element when the comparison says "not greater"; ggml sorts with qsort, and
 * the order of equal values changes the prefix sums, so this is reproduced
 * exactly (for a consistent comparison any stable sort would do). */
static void sort_pairs(vpair *a, vpair *tmp, int n) {
    if (n <= 1) return;
    const int n1 = n / 2;
    sort_pairs(a, tmp, n1);
    sort_pairs(a + n1, tmp, n - n1);
    int i = 0, j = n1, k = 0;
    while (i < n1 && j < n) tmp[k++] = a[i].v > a[j].v ? a[j++] : a[i++];
    while (i < n1) tmp[k++] = a[i++];
    memcpy(a, tmp, (size_t)k * sizeof *a);
}

static void sorted_pairs(const float *xb, int n, vpair *pr) {
    vpair tmp[32];
    for (int j = 0; j < n; j++) pr[j] = (vpair){xb[j], j};
    sort_pairs(pr, tmp, n);
}

static float abs_max(const float *xb, int n) {
    float m = fabsf(xb[0]);
    for (int i = 1; i < n; i++) {
        const float a = fabsf(xb[i]);
        m = m > a ? m : a;
    }
    return m;
}

/* best neighbour of an off-grid IQ1 point; the levels map through xg (the
 * three shifted values) rather than 2l+1.  -1 if no candidate has a finite
 * distance (ggml then reads past its arrays; the row is rejected instead). */
static int iq1_neighbour(const iqgrid *G, int32_t slot, const float *xval, const float *w, float scale,
                         const float *xg) {
    const uint16_t *nb = G->nbr + (-slot - 1);
    float best = FLT_MAX;
    int gi = -1;
    for (int j = 1; j <= nb[0]; j++) {
        const int8_t *pg = G->pos + (size_t)nb[j] * 8;
        float d2 = 0;
        for (int i = 0; i < 8; i++) {
            const float diff = scale * xg[(pg[i] - 1) / 2] - xval[i];
            d2 += w[i] * diff * diff;
        }
        if (d2 < best) {
            best = d2;
            gi = nb[j];
        }
    }
    return gi;
}

/* grid index of the 8 levels at L (searching neighbours off the grid); *off
 * is set when a neighbour had to be used */
static int iq1_index(const iqgrid *G, const int8_t *L, const float *xb, const float *w, float scale,
                     const float *xg, bool *off) {
    int u = 0;
    for (int j = 0; j < 8; j++) u |= L[j] << (2 * j);
    const int32_t m = G->map[u];
    if (m >= 0) return m;
    *off = true;
    return iq1_neighbour(G, m, xb, w, scale, xg);
}

static void iq1_weights(const float *xb, const float *qw, float sigma2, int n, float *w) {
    if (qw)
        for (int i = 0; i < n; i++) w[i] = qw[i] * sqrtf(sigma2 + xb[i] * xb[i]);
    else
        for (int i = 0; i < n; i++) w[i] = xb[i] * xb[i];
}

static void iq1_levels(const vpair *pr, int n, int i1, int i2, int8_t *L) {
    for (int j = 0; j < n; j++) L[pr[j].i] = (int8_t)(j < i1 ? 0 : j < i2 ? 1 : 2);
}

/* ---- IQ1_S, 50 bytes: d | qs[32] | qh[8] (u16: 3 high index bits per
 * group, 3-bit scale at 12, shift sign at 15) ---- */
static bool iq1_s_block(const iqgrid *G, const float *xbl, const float *qwb, uint8_t *b) {
    static const float xp[3] = {-1 + LGG__IQ1S_DELTA, LGG__IQ1S_DELTA, 1 + LGG__IQ1S_DELTA};
    static const float xm[3] = {-1 - LGG__IQ1S_DELTA, -LGG__IQ1S_DELTA, 1 - LGG__IQ1S_DELTA};
    float scales[QK_K / 32], w[32], sumx[33], sumw[33];
    int8_t L[32], shifts[QK_K / 32];
    uint16_t qh[QK_K / 32] = {0};
    vpair pr[32];
    memset(b, 0, 50);
    uint8_t *qs = b + 2;
    float max_scale = 0;
    const float sigma2 = block_sigma2(xbl, 2);
    for (int ib = 0; ib < QK_K / 32; ib++) {
        const float *xb = xbl + 32 * ib;
        iq1_weights(xb, qwb + 32 * ib, sigma2, 32, w);
        const float max = abs_max(xb, 32);
        scales[ib] = 0;
        shifts[ib] = 1;
        if (max < 1e-12f) continue;
        sorted_pairs(xb, 32, pr);
        sumx[0] = sumw[0] = 0;
        for (int j = 0; j < 32; j++) {
            const int i = pr[j].i;
            sumx[j + 1] = sumx[j] + w[i] * xb[i];
            sumw[j + 1] = sumw[j] + w[i];
        }
        float best = -FLT_MAX, scale = max;
        int b1 = -1, b2 = -1, bshift = 0;
        for (int i1 = 0; i1 <= 32; i1++) {
            for (int i2 = i1; i2 <= 32; i2++) {
                const float s0 = sumx[i1] - sumx[0], s1 = sumx[i2] - sumx[i1], s2 = sumx[32] - sumx[i2];
                const float w0 = sumw[i1] - sumw[0], w1 = sumw[i2] - sumw[i1], w2 = sumw[32] - sumw[i2];
                float sqx = s0 * xp[0] + s1 * xp[1] + s2 * xp[2];
                float sq2 = w0 * xp[0] * xp[0] + w1 * xp[1] * xp[1] + w2 * xp[2] * xp[2];
                if (sq2 > 0 && sqx * sqx > best * sq2) {
                    scale = sqx / sq2;
                    best = scale * sqx;
                    b1 = i1, b2 = i2, bshift = 1;
                }
                sqx = s0 * xm[0] + s1 * xm[1] + s2 * xm[2];
                sq2 = w0 * xm[0] * xm[0] + w1 * xm[1] * xm[1] + w2 * xm[2] * xm[2];
                if (sq2 > 0 && sqx * sqx > best * sq2) {
                    scale = sqx / sq2;
                    best = scale * sqx;
                    b1 = i1, b2 = i2, bshift = -1;
                }
            }
        }
        if (b1 < 0 || b2 < 0 || bshift == 0) continue;
        iq1_levels(pr, 32, b1, b2, L);
        if (scale < 0) {
            for (int j = 0; j < 32; j++) L[j] = (int8_t)(2 - L[j]);
            scale = -scale;
            bshift = -bshift;
        }
        const float *xx = bshift == 1 ? xp : xm;
        bool off = false;
        int index[4];
        for (int k = 0; k < 4; k++) {
            index[k] = iq1_index(G, L + 8 * k, xb + 8 * k, w + 8 * k, scale, xx, &off);
            if (index[k] < 0) return false;
        }
        if (off) {
            float sqx = 0, sq2 = 0;
            for (int k = 0; k < 4; k++) {
                const int8_t *pg = G->pos + (size_t)index[k] * 8;
                for (int j = 0; j < 8; j++) {
                    const float wv = w[8 * k + j], q = xx[(pg[j] - 1) / 2];
                    sqx += wv * q * xb[8 * k + j];
                    sq2 += wv * q * q;
                }
            }
            if (sqx > 0 && sq2 > 0) scale = sqx / sq2;
        }
        for (int k = 0; k < 4; k++) {
            qs[4 * ib + k] = (uint8_t)(index[k] & 255);
            qh[ib] |= (uint16_t)((index[k] >> 8) << (3 * k));
        }
        if (!(scale >= 0)) return false;
        scales[ib] = scale;
        shifts[ib] = (int8_t)bshift;
        max_scale = max_scale > scale ? max_scale : scale;
    }
    if (max_scale != 0) {
        const float d = max_scale / 15;
        lgg__put_f16(b, d * 1.125f);
        const float id = 1 / d;
        for (int ib = 0; ib < QK_K / 32; ib++) {
            int l = lgg__nearest_int(0.5f * (id * scales[ib] - 1));
            l = l < 0 ? 0 : l > 7 ? 7 : l;
            if (shifts[ib] == -1) l |= 8;
            qh[ib] |= (uint16_t)(l << 12);
        }
    }
    for (int ib = 0; ib < QK_K / 32; ib++) lgg__put16(b + LGG__IQ1_S_QH + 2 * ib, qh[ib]);
    return true;
}

/* ---- IQ1_M, 56 bytes: qs[32] | qh[16] (3 high index bits and a shift sign
 * per group of 8) | scales[8] (4 u16: four 3-bit block scales each, the f16
 * super-block scale spread over their top nibbles) ----
 * shift code k: bit 1 = first group shifted down, bit 0 = second group */
static bool iq1_m_block(const iqgrid *G, const float *xbl, const float *qwb, uint8_t *b) {
    static const float xp[3] = {-1 + LGG__IQ1M_DELTA, LGG__IQ1M_DELTA, 1 + LGG__IQ1M_DELTA};
    static const float xm[3] = {-1 - LGG__IQ1M_DELTA, -LGG__IQ1M_DELTA, 1 - LGG__IQ1M_DELTA};
    static const uint8_t masks[4] = {0x00, 0x80, 0x08, 0x88};
    float scales[QK_K / 16], w[16];
    int8_t L[16], shifts[QK_K / 16];
    uint16_t sc[4] = {0};
    vpair pr[16];
    memset(b, 0, 56);
    uint8_t *qs = b, *qh = b + 32;
    float max_scale = 0;
    const float sigma2 = block_sigma2(xbl, 2);
    for (int ib = 0; ib < QK_K / 16; ib++) {
        const float *xb = xbl + 16 * ib;
        iq1_weights(xb, qwb ? qwb + 16 * ib : NULL, sigma2, 16, w);
        const float max = abs_max(xb, 16);
        scales[ib] = 0;
        shifts[ib] = 0;
        if (max < 1e-7f) continue;
        sorted_pairs(xb, 16, pr);
        /* per sorted position and level: the terms each split adds; which of
         * the 4 shift codes gets the + or - term depends on the half */
        float tp[3][16], tm[3][16], tp2[3][16], tm2[3][16];
        bool lo[16];
        for (int j = 0; j < 16; j++) {
            const int i = pr[j].i;
            lo[j] = i < 8;
            for (int a = 0; a < 3; a++) {
                tp[a][j] = w[i] * xp[a] * xb[i];
                tm[a][j] = w[i] * xm[a] * xb[i];
                tp2[a][j] = w[i] * xp[a] * xp[a];
                tm2[a][j] = w[i] * xm[a] * xm[a];
            }
        }
        float best = -FLT_MAX, scale = max;
        int b1 = -1, b2 = -1, bk = -1;
        for (int i1 = 0; i1 <= 16; i1++) {
            for (int i2 = i1; i2 <= 16; i2++) {
                float sqx[4] = {0, 0, 0, 0}, sq2[4] = {0, 0, 0, 0};
                for (int j = 0; j < 16; j++) {
                    const int a = j < i1 ? 0 : j < i2 ? 1 : 2;
                    /* codes 0,1 (lo) or 0,2 (hi) take the + shift */
                    const int o = lo[j] ? 1 : 2, n = lo[j] ? 2 : 1;
                    sqx[0] += tp[a][j], sqx[o] += tp[a][j], sqx[n] += tm[a][j], sqx[3] += tm[a][j];
                    sq2[0] += tp2[a][j], sq2[o] += tp2[a][j], sq2[n] += tm2[a][j], sq2[3] += tm2[a][j];
                }
                for (int k = 0; k < 4; k++) {
                    if (sq2[k] > 0 && sqx[k] * sqx[k] > best * sq2[k]) {
                        scale = sqx[k] / sq2[k];
                        best = scale * sqx[k];
                        b1 = i1, b2 = i2, bk = k;
                    }
                }
            }
        }
        if (b1 < 0 || b2 < 0 || bk < 0) continue;
        iq1_levels(pr, 16, b1, b2, L);
        if (scale < 0) {
            for (int j = 0; j < 16; j++) L[j] = (int8_t)(2 - L[j]);
            scale = -scale;
            bk = 3 - bk;
        }
        const float *xg[2] = {bk < 2 ? xp : xm, bk % 2 == 0 ? xp : xm};
        bool off = false;
        int index[2];
        for (int k = 0; k < 2; k++) {
            index[k] = iq1_index(G, L + 8 * k, xb + 8 * k, w + 8 * k, scale, xg[k], &off);
            if (index[k] < 0) return false;
        }
        if (off) {
            float sqx = 0, sq2 = 0;
            for (int k = 0; k < 2; k++) {
                const int8_t *pg = G->pos + (size_t)index[k] * 8;
                for (int j = 0; j < 8; j++) {
                    const float wv = w[8 * k + j], q = xg[k][(pg[j] - 1) / 2];
                    sqx += wv * q * xb[8 * k + j];
                    sq2 += wv * q * q;
                }
            }
            if (sqx > 0 && sq2 > 0) scale = sqx / sq2;
        }
        qs[2 * ib] = (uint8_t)(index[0] & 255);
        qs[2 * ib + 1] = (uint8_t)(index[1] & 255);
        qh[ib] = (uint8_t)((index[0] >> 8) | ((index[1] >> 8) << 4));
        if (!(scale >= 0)) return false;
        scales[ib] = scale;
        shifts[ib] = (int8_t)bk;
        max_scale = max_scale > scale ? max_scale : scale;
    }
    if (max_scale == 0) return true;
    /* refit the super-block scale to the chosen points and 3-bit scales */
    float d = max_scale / 15;
    const float id = 1 / d;
    float sqx = 0, sq2 = 0;
    for (int ib = 0; ib < QK_K / 16; ib++) {
        int l = lgg__nearest_int(0.5f * (id * scales[ib] - 1));
        l = l < 0 ? 0 : l > 7 ? 7 : l;
        sc[ib / 4] |= (uint16_t)(l << (3 * (ib % 4)));
        qh[ib] |= masks[shifts[ib]];
        const float *xb = xbl + 16 * ib;
        iq1_weights(xb, qwb ? qwb + 16 * ib : NULL, sigma2, 16, w);
        for (int k = 0; k < 2; k++) {
            const float *xx = (k == 0 ? shifts[ib] < 2 : shifts[ib] % 2 == 0) ? xp : xm;
            const int gi = qs[2 * ib + k] | ((qh[ib] << (8 - 4 * k)) & 0x700);
            const int8_t *pg = G->pos + (size_t)gi * 8;
            for (int j = 0; j < 8; j++) {
                const float wv = w[8 * k + j], q = xx[(pg[j] - 1) / 2] * (float)(2 * l + 1);
                sqx += wv * q * xb[8 * k + j];
                sq2 += wv * q * q;
            }
        }
    }
    if (sq2 > 0) d = sqx / sq2;
    const uint16_t h = lgg_f32_to_f16(d * 1.1125f);
    sc[0] |= (uint16_t)((h & 0x000f) << 12);
    sc[1] |= (uint16_t)((h & 0x00f0) << 8);
    sc[2] |= (uint16_t)((h & 0x0f00) << 4);
    sc[3] |= (uint16_t)(h & 0xf000);
    for (int i = 0; i < 4; i++) lgg__put16(b + LGG__IQ1_M_SCALES + 2 * i, sc[i]);
    return true;
}

typedef bool (*iq_block_fn)(const iqgrid *G, const float *xbl, const float *qwb, uint8_t *b);

static bool iq_row(int g, iq_block_fn fn, size_t bsize, const float *x, uint8_t *y, int64_t n, const float *qw) {
    const iqgrid *G = &GRIDS[g];
    if (!G->ok) return false;
    for (int64_t i = 0; i < n / QK_K; i++)
        if (!fn(G, x + i * QK_K, qw ? qw + i * QK_K : NULL, y + (size_t)i * bsize)) return false;
    return true;
}

bool lgg__qrow_iq2_xxs(const float *x, uint8_t *y, int64_t n, const float *qw) {
    return qw && iq_row(G_IQ2XXS, iq2_xxs_block, 66, x, y, n, qw);
}
bool lgg__qrow_iq2_xs(const float *x, uint8_t *y, int64_t n, const float *qw) {
    return qw && iq_row(G_IQ2XS, iq2_xs_block, 74, x, y, n, qw);
}
bool lgg__qrow_iq2_s(const float *x, uint8_t *y, int64_t n, const float *qw) {
    return iq_row(G_IQ2S, iq2_s_block, 82, x, y, n, qw);
}
bool lgg__qrow_iq3_xxs(const float *x, uint8_t *y, int64_t n, const float *qw) {
    return iq_row(G_IQ3XXS, iq3_xxs_block, 98, x, y, n, qw);
}
bool lgg__qrow_iq3_s(const float *x, uint8_t *y, int64_t n, const float *qw) {
    return iq_row(G_IQ3S, iq3_s_block, 110, x, y, n, qw);
}
bool lgg__qrow_iq1_s(const float *x, uint8_t *y, int64_t n, const float *qw) {
    return qw && iq_row(G_IQ1S, iq1_s_block, 50, x, y, n, qw);
}
bool lgg__qrow_iq1_m(const float *x, uint8_t *y, int64_t n, const float *qw) {
    return iq_row(G_IQ1S, iq1_m_block, 56, x, y, n, qw);
}
