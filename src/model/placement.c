/* placement.c -- llama.cpp's placement of layers, tensors and KV caches on
 * the host and the devices (llama_model_base::load_tensors and the loader's
 * buffer overrides, the same in b4747 and master 3f545becc). */
#include "model/placement.h"

#include <stdlib.h>
#include <string.h>

/* llama.cpp's split points: each device's share (-ts, else its free memory,
 * else equal here, where no device reports any), summed and normalised in
 * float as llama.cpp does them, so that a layer on a boundary lands where it
 * lands there. */
static void split_points(lgg__placement *pl, const lgg_estimate_params *p, uint32_t n) {
    bool ts = false, free_mem = false;
    for (uint32_t i = 0; i < n; i++) {
        if (p->tensor_split[i] != 0.0f) ts = true;
        if (p->device_free[i]) free_mem = true;
    }
    float sum = 0.0f;
    for (uint32_t i = 0; i < n; i++) {
        float share = ts ? p->tensor_split[i] : free_mem ? (float)p->device_free[i] : 1.0f;
        sum += share;
        pl->splits[i] = sum;
    }
    for (uint32_t i = 0; i < n; i++) pl->splits[i] /= sum;
}

static lgg_status compile_overrides(lgg__placement *pl, const lgg_estimate_params *p, uint32_t n_dev,
                                    lgg_error *err) {
    if (p->n_overrides == 0) return LGG_OK;
    if (!p->overrides) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "n_overrides is %u but overrides is NULL",
                                        p->n_overrides);
    if (p->n_overrides > LGG__MAX_OVERRIDES)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "%u tensor overrides (at most %u)", p->n_overrides,
                         LGG__MAX_OVERRIDES);
    pl->re = calloc(p->n_overrides, sizeof *pl->re);
    pl->re_dev = calloc(p->n_overrides, sizeof *pl->re_dev);
    if (!pl->re || !pl->re_dev) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < p->n_overrides; i++) {
        const lgg_estimate_override *o = &p->overrides[i];
        if (!o->pattern) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "tensor override %u has no pattern", i);
        if (o->device < LGG__HOST || (o->device >= 0 && (uint32_t)o->device >= n_dev))
            return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET,
                             "tensor override '%s': device %d, but there %s %u device%s", o->pattern, o->device,
                             n_dev == 1 ? "is" : "are", n_dev, n_dev == 1 ? "" : "s");
        int rc = regcomp(&pl->re[i], o->pattern, REG_EXTENDED | REG_NOSUB);
        if (rc) {
            char why[128];
            regerror(rc, &pl->re[i], why, sizeof why);
            return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "tensor override '%s': %s", o->pattern, why);
        }
        pl->re_dev[i] = o->device;
        pl->n_re = i + 1;
    }
    return LGG_OK;
}

lgg_status lgg__placement_init(lgg__placement *pl, const lgg_estimate_params *p, uint32_t n_layer,
                               uint32_t n_gpu_layers, lgg_error *err) {
    memset(pl, 0, sizeof *pl);
    uint32_t n = p->n_devices ? p->n_devices : 1;
    if (n > LGG_ESTIMATE_MAX_DEVICES)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "%u devices (llama.cpp splits over %d at most)", n,
                         LGG_ESTIMATE_MAX_DEVICES);
    /* Row split puts each offloaded matrix in a backend's split buffer, whose per-device share is rounded to a
     * row count the GPU's generation decides (get_row_rounding: CUDA's mmq_y by compute capability in
     * b4747, SYCL's by GPU generation); at master 3f545becc only SYCL has that buffer (CUDA's went in
     * 74976e1ae) and any other device makes llama_model_load fail ("does not support split buffers"). */
    if (p->split_mode == LGG_SPLIT_ROW)
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "%s",
                         p->target == LGG_ESTIMATE_MASTER
                             ? "row split (-sm row) is not estimated: llama.cpp master loads it on SYCL devices only "
                               "(CUDA's split buffer was removed; other devices fail: \"does not support split "
                               "buffers\"), whose rows are split in steps the GPU's generation sets"
                             : "row split (-sm row) is not estimated: the CUDA and SYCL split buffers split each "
                               "matrix's rows over the devices in steps each GPU's compute capability sets, which "
                               "only the GPU backend knows");
    if (p->split_mode != LGG_SPLIT_LAYER && p->split_mode != LGG_SPLIT_NONE)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "split mode %u is none of LGG_SPLIT_*", p->split_mode);
    if (p->main_gpu >= n)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "main device %u, but there %s %u device%s", p->main_gpu,
                         n == 1 ? "is" : "are", n, n == 1 ? "" : "s");
    for (uint32_t i = 0; i < n; i++)
        if (!(p->tensor_split[i] >= 0.0f && p->tensor_split[i] <= 1e30f))
            return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "tensor split %u is not a share (%g)", i,
                             (double)p->tensor_split[i]);
    pl->n_layer = n_layer;
    pl->act_layers = n_gpu_layers;
    /* master counts the output layer among the n_gpu_layers; b4747 offloaded it only past n_layer */
    pl->gpu_start = p->target == LGG_ESTIMATE_MASTER ? n_layer + 1 - n_gpu_layers
                    : n_layer > n_gpu_layers        ? n_layer - n_gpu_layers
                                                    : 0;
    pl->kv_on_host = p->no_kv_offload;
    if (p->split_mode == LGG_SPLIT_NONE) {
        pl->n_dev = 1;
        pl->first_dev = p->main_gpu;
        pl->splits[0] = 1.0f;
    } else {
        pl->n_dev = n;
        split_points(pl, p, n);
    }
    return compile_overrides(pl, p, n, err);
}

void lgg__placement_free(lgg__placement *pl) {
    for (uint32_t i = 0; i < pl->n_re; i++) regfree(&pl->re[i]);
    free(pl->re);
    free(pl->re_dev);
    memset(pl, 0, sizeof *pl);
}

int32_t lgg__layer_device(const lgg__placement *pl, uint32_t il) {
    if (il == UINT32_MAX || il < pl->gpu_start || il - pl->gpu_start >= pl->act_layers) return LGG__HOST;
    /* std::upper_bound: the first split point above the layer's place */
    const float at = (float)(il - pl->gpu_start) / (float)pl->act_layers;
    uint32_t d = 0;
    while (d < pl->n_dev && !(at < pl->splits[d])) d++;
    if (d == pl->n_dev) d = pl->n_dev - 1; /* llama.cpp would index past its devices: not reached with shares > 0 */
    return (int32_t)(pl->first_dev + d);
}

int32_t lgg__tensor_device(const lgg__placement *pl, lgg_str name, uint32_t il, bool *overridden) {
    *overridden = false;
    if (pl->n_re) {
        char small[256], *s = small;
        if (name.len >= sizeof small && !(s = malloc(name.len + 1))) return LGG__PLACE_NOMEM;
        memcpy(s, name.ptr, name.len);
        s[name.len] = '\0';
        int32_t dev = 0;
        for (uint32_t i = 0; i < pl->n_re && !*overridden; i++)
            if (regexec(&pl->re[i], s, 0, NULL, 0) == 0) {
                dev = pl->re_dev[i];
                *overridden = true;
            }
        if (s != small) free(s);
        if (*overridden) return dev;
    }
    return lgg__layer_device(pl, il);
}

int32_t lgg__kv_device(const lgg__placement *pl, uint32_t il) {
    return pl->kv_on_host ? LGG__HOST : lgg__layer_device(pl, il);
}
