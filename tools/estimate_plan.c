/* estimate_plan.c -- `gguf estimate --fit-device`: from budgets to the
 * llama.cpp flags that realise them.  It tries what llama.cpp users try, in
 * their order: every layer on the devices; then the experts of the first
 * layers on the host (--n-cpu-moe); then a q8_0 KV cache; then fewer layers.
 * Each candidate is estimated from the header (lgg_estimate_model). */
#include "tool.h"

#include <stdio.h>
#include <string.h>

enum { MAX_RULES = 1024 };

typedef struct planner {
    const cli_shards *m;
    lgg_estimate_params p; /* the settings tried (its rules: the user's, then the planner's) */
    const est_budgets *b;
    lgg_estimate_override rules[MAX_RULES];
    char patterns[512][48];
    uint32_t n_user_rules;
} planner;

/* a + b + c <= budget, without wrapping */
static bool sum_fits(uint64_t a, uint64_t b, uint64_t c, uint64_t budget) {
    return a <= budget && b <= budget - a && c <= budget - a - b;
}

/* The projector's bytes at place d (-1: the host). */
static uint64_t mmproj_at(const lgg_estimate *e, int32_t d) {
    uint64_t t;
    if (!e->has_mmproj || e->mmproj_device != d) return 0;
    return __builtin_add_overflow(e->mmproj_weights, e->mmproj_compute, &t) ? UINT64_MAX : t;
}

/* With a draft model (-md) and a projector (--mmproj), their totals count with the model's. */
bool cli_estimate_fits(const lgg_estimate *e, const est_budgets *b) {
    if (!sum_fits(e->host.total, e->draft_host.total, mmproj_at(e, -1), b->host)) return false;
    if (e->n_devices == 1) return sum_fits(e->device.total, e->draft_device.total, mmproj_at(e, 0), b->device[0]);
    for (uint32_t d = 0; d < e->n_devices; d++)
        if (!sum_fits(e->devices[d].total, e->draft_devices[d].total, mmproj_at(e, (int32_t)d), b->device[d]))
            return false;
    return true;
}

est_budgets cli_estimate_budgets(const lgg_estimate_params *p, uint64_t host, uint64_t device) {
    est_budgets b;
    b.host = host ? host : UINT64_MAX;
    for (uint32_t d = 0; d < LGG_ESTIMATE_MAX_DEVICES; d++) {
        uint64_t v = p->n_devices > 1 ? p->device_free[d] : d ? 0 : device;
        b.device[d] = v ? v : UINT64_MAX;
    }
    return b;
}

/* The estimate with the experts of the first n_cpu_moe layers on the host. */
static lgg_status try_plan(planner *pl, uint32_t n_cpu_moe, lgg_estimate *e, lgg_error *err) {
    uint32_t n = pl->n_user_rules;
    for (uint32_t il = 0; il < n_cpu_moe && n < MAX_RULES && il < 512; il++, n++) {
        snprintf(pl->patterns[il], sizeof pl->patterns[il], "blk\\.%u\\.ffn_(up|down|gate|gate_up)_(ch|)exps", il);
        pl->rules[n] = (lgg_estimate_override){pl->patterns[il], LGG_ESTIMATE_HOST};
    }
    pl->p.overrides = pl->rules;
    pl->p.n_overrides = n;
    return lgg_estimate_model((const lgg_file *const *)pl->m->files, pl->m->n, &pl->p, e, err);
}

static bool has_experts(const cli_shards *m) {
    for (uint32_t k = 0; k < m->n; k++)
        for (uint64_t i = 0; i < lgg_tensor_count(m->files[k]); i++) {
            lgg_str name = lgg_tensor_at(m->files[k], i)->name;
            for (size_t j = 0; j + 5 <= name.len; j++)
                if (!memcmp(name.ptr + j, "_exps", 5)) return true;
        }
    return false;
}

/* The fewest layers whose experts go to the host for everything to fit, at
 * every layer offloaded (more on the host only shrinks the devices); false:
 * none does.  Bisection: the devices' totals fall as N grows. */
static bool fewest_cpu_moe(planner *pl, uint32_t n_layer, uint32_t *n_out, lgg_estimate *e, lgg_error *err,
                           lgg_status *st) {
    uint32_t lo = 1, hi = n_layer;
    if ((*st = try_plan(pl, hi, e, err)) || !cli_estimate_fits(e, pl->b)) return false;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((*st = try_plan(pl, mid, e, err))) return false;
        if (cli_estimate_fits(e, pl->b)) hi = mid;
        else lo = mid + 1;
    }
    *n_out = lo;
    return (*st = try_plan(pl, lo, e, err)) == LGG_OK;
}

/* Every layer offloaded, then the experts to the host: a plan at the current cache types. */
static bool plan_at_cache(planner *pl, bool moe, est_plan *out, lgg_estimate *e, lgg_error *err, lgg_status *st) {
    pl->p.n_gpu_layers = UINT32_MAX / 2;
    if ((*st = try_plan(pl, 0, e, err))) return false;
    if (cli_estimate_fits(e, pl->b)) return true;
    if (moe && fewest_cpu_moe(pl, e->n_layer, &out->n_cpu_moe, e, err, st)) return true;
    return false;
}

/* One step taken, in words (at most four). */
static char *next_step(est_plan *out) {
    return out->n_steps < 4 ? out->steps[out->n_steps++] : out->steps[3];
}

/* The flags, as llama.cpp spells them; -ts as the layers each device holds, so that the split is the
 * one estimated whatever memory the devices report. */
static void flags(const lgg_estimate *e, const est_plan *pl, char *buf, size_t cap) {
    size_t n = 0;
#define PUT(...) (n += (size_t)snprintf(buf + n, n < cap ? cap - n : 0, __VA_ARGS__))
    PUT("-ngl %u", e->n_gpu_layers);
    if (e->n_devices > 1 && e->n_gpu_layers) {
        PUT(" -ts ");
        for (uint32_t d = 0; d < e->n_devices; d++)
            PUT("%s%u", d ? "," : "", e->device_layers[d] + (e->output_device == (int32_t)d));
    }
    if (pl->n_cpu_moe) PUT(" --n-cpu-moe %u", pl->n_cpu_moe);
    PUT(" -c %u", e->n_ctx);
    if (pl->quant_cache) PUT(" -fa on -ctk q8_0 -ctv q8_0");
#undef PUT
    if (n >= cap && cap) buf[cap - 1] = 0;
}

int cli_estimate_plan(const cli_shards *m, const lgg_estimate_params *p, const est_budgets *b, est_plan *out,
                      lgg_estimate *e, lgg_error *err) {
    static planner pl; /* ~40 KB of rules and patterns: not on the stack (the CLI runs one plan at a time) */
    memset(&pl, 0, sizeof pl);
    memset(out, 0, sizeof *out);
    pl.m = m, pl.p = *p, pl.b = b;
    pl.n_user_rules = p->n_overrides < MAX_RULES - 512 ? p->n_overrides : MAX_RULES - 512;
    if (pl.n_user_rules) memcpy(pl.rules, p->overrides, pl.n_user_rules * sizeof *pl.rules);
    const bool moe = has_experts(m);
    lgg_status st = LGG_OK;
    bool found = plan_at_cache(&pl, moe, out, e, err, &st);
    if (!found && !st && (p->type_k != LGG_TYPE_Q8_0 || p->type_v != LGG_TYPE_Q8_0)) {
        pl.p.type_k = pl.p.type_v = LGG_TYPE_Q8_0;
        pl.p.flash_attn = true, pl.p.no_flash_attn = false;
        out->quant_cache = true;
        out->n_cpu_moe = 0;
        found = plan_at_cache(&pl, moe, out, e, err, &st);
    }
    if (st) return CLI_FAIL;
    const size_t cap = sizeof out->steps[0];
    const bool first = found && !out->quant_cache && !out->n_cpu_moe;
    snprintf(next_step(out), cap, "every layer and the output layer on the device%s%s", e->n_devices > 1 ? "s" : "",
             first ? "" : ": too big");
    if (moe && !first)
        snprintf(next_step(out), cap, out->n_cpu_moe == 1 ? "the experts of layer 0 on the host"
                                      : out->n_cpu_moe   ? "the experts of the first %u layers on the host"
                                                         : "the experts on the host: too big",
                 out->n_cpu_moe);
    if (out->quant_cache) snprintf(next_step(out), cap, "a q8_0 KV cache (with flash attention)%s", found ? "" : ": too big");
    if (!found) { /* fewer layers, experts all on the device again */
        uint32_t ngl = 0;
        pl.p.overrides = pl.rules, pl.p.n_overrides = pl.n_user_rules;
        out->n_cpu_moe = 0;
        if (lgg_estimate_fit_gpu_layers((const lgg_file *const *)m->files, m->n, &pl.p, b->device[0], &ngl, err) ||
            (pl.p.n_gpu_layers = ngl, try_plan(&pl, 0, e, err)))
            return CLI_FAIL;
        snprintf(next_step(out), cap, "fewer layers: -ngl %u", ngl);
        found = cli_estimate_fits(e, b);
    }
    out->found = found;
    flags(e, out, out->flags, sizeof out->flags);
    return CLI_OK;
}
