/* ref_devices: llama.cpp master's own placement and fit on GPU devices this host does not have (issue 36,
 * items 2 and 3).  Not part of libgguf and not built by make (C++: master's fit, common/fit.h, is C++ only).
 *
 * It registers N fake devices of type GPU (GPU0, GPU1, ...) through ggml's public
 * ggml_backend_device_register, each with the free = total memory given in MiB.  Their buffer type
 * allocates nothing (a buffer with a dummy base) and their backend computes nothing: master's fit and
 * common_get_device_memory_data load the model and create the context with no_alloc, so only the sizes
 * are asked for.  supports_op is true for every op and offload_op false, which is what decides the
 * compute buffers (a real backend that refuses an op moves it to the CPU); weights, KV and output
 * placement do not depend on it.  Master needs no rebuild: the structs come from ggml/src/ggml-backend-impl.h
 * of the same checkout.
 *
 *   ref_devices MODEL NGL MiB[,MiB...]        per-device model/context/compute bytes at -ngl NGL, -c 4096
 *   ref_devices MODEL 0 MiB[,MiB...] fit      master's common_fit_params (default 1024 MiB margin, -c
 *                                             minimum 4096), printed as llama-fit-params prints its flags
 *
 * Build (R = a built llama.cpp master tree, /work/ref-llama-master here):
 *   g++ -std=c++17 -O1 -I$R/include -I$R/ggml/include -I$R/ggml/src -I$R/common ref_devices.cpp \
 *       -L$R/build/bin -lllama-common -lllama -lggml -lggml-base -Wl,-rpath,$R/build/bin -o ref_devices
 *
 * Measured (qwen3moe-small of gen_models.py, master as built in /work/ref-llama-master):
 *   fit 2500          -> -c 4096 -ngl 5 -ot "blk\.2\.ffn_(gate|gate_up|down).*=CPU,blk\.3\..._(ch|)exps=CPU,blk\.4\...."
 *   fit 1800,1800,1800 -> -c 4096 -ngl 5 -ts 2,2,1 -ot "blk\.3\.ffn_(up|down|gate_up|gate)_(ch|)exps=CPU"
 *   fit 3000,3000     -> -c 40960 -ngl -1 (fits unchanged)
 * Not yet turned into tests/estimate references nor compared with gguf estimate.
 */
#include "ggml-backend-impl.h"
#include "llama.h"
#include "fit.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>

struct fdev { std::string name; size_t mem; ggml_backend_buffer_type buft; ggml_backend_device dev; };
static fdev g_devs[4];

static const char * buft_name(ggml_backend_buffer_type_t b) { return ((fdev *) b->context)->name.c_str(); }
static void buf_free(ggml_backend_buffer_t) {}
static void * buf_base(ggml_backend_buffer_t) { return (void *) 0x1000; }
static void buf_clear(ggml_backend_buffer_t, uint8_t) {}
static ggml_backend_buffer_t buft_alloc(ggml_backend_buffer_type_t b, size_t size) {
    ggml_backend_buffer_i it = {}; it.free_buffer = buf_free; it.get_base = buf_base; it.clear = buf_clear;
    return ggml_backend_buffer_init(b, it, nullptr, size);
}
static size_t buft_align(ggml_backend_buffer_type_t) { return 256; }
static bool buft_host(ggml_backend_buffer_type_t) { return false; }

static const char * dev_name(ggml_backend_dev_t d) { return ((fdev *) d->context)->name.c_str(); }
static void dev_mem(ggml_backend_dev_t d, size_t * f, size_t * t) { *f = *t = ((fdev *) d->context)->mem; }
static enum ggml_backend_dev_type dev_type(ggml_backend_dev_t) { return GGML_BACKEND_DEVICE_TYPE_GPU; }
static void dev_props(ggml_backend_dev_t d, ggml_backend_dev_props * p) {
    memset(p, 0, sizeof *p); p->name = dev_name(d); p->description = dev_name(d); p->type = GGML_BACKEND_DEVICE_TYPE_GPU;
    dev_mem(d, &p->memory_free, &p->memory_total);
}
static const char * be_name(ggml_backend_t b) { return dev_name(b->device); }
static void be_free(ggml_backend_t b) { delete b; }
static ggml_status be_compute(ggml_backend_t, ggml_cgraph *) { return GGML_STATUS_SUCCESS; }
static ggml_guid g_guid = {1};
static ggml_backend_t dev_init(ggml_backend_dev_t d, const char *) {
    ggml_backend_i it = {}; it.get_name = be_name; it.free = be_free; it.graph_compute = be_compute;
    return new ggml_backend{&g_guid, it, d, nullptr};
}
static ggml_backend_buffer_type_t dev_buft(ggml_backend_dev_t d) { return &((fdev *) d->context)->buft; }
static bool dev_supports_op(ggml_backend_dev_t, const ggml_tensor *) { return true; }
static bool dev_supports_buft(ggml_backend_dev_t d, ggml_backend_buffer_type_t b) { return b->device == d; }
static bool dev_offload(ggml_backend_dev_t, const ggml_tensor *) { return false; }

static const char * reg_name(ggml_backend_reg_t) { return "FAKE"; }
static size_t reg_count(ggml_backend_reg_t) { return 0; }
static void * reg_proc(ggml_backend_reg_t, const char *) { return nullptr; }
static ggml_backend_reg g_reg;
int main(int argc, char ** argv) {
    if (argc < 4) { fprintf(stderr, "usage: ref_devices MODEL NGL MiB[,MiB...] [fit]\n"); return 2; }
    { ggml_backend_reg_i ri = {}; ri.get_name = reg_name; ri.get_device_count = reg_count; ri.get_proc_address = reg_proc; g_reg = {GGML_BACKEND_API_VERSION, ri, nullptr}; }
    const char * budgets = argv[3]; int nd = 0;
    for (const char * p = budgets; *p && nd < 4; nd++) {
        fdev & f = g_devs[nd]; f.name = "GPU" + std::to_string(nd); f.mem = strtoull(p, (char **) &p, 10) << 20; if (*p == ',') p++;
        ggml_backend_buffer_type_i bi = {}; bi.get_name = buft_name; bi.alloc_buffer = buft_alloc; bi.get_alignment = buft_align; bi.is_host = buft_host;
        f.buft = {bi, &f.dev, &f};
        ggml_backend_device_i di = {}; di.get_name = dev_name; di.get_description = dev_name; di.get_memory = dev_mem; di.get_type = dev_type;
        di.get_props = dev_props; di.init_backend = dev_init; di.get_buffer_type = dev_buft; di.supports_op = dev_supports_op;
        di.supports_buft = dev_supports_buft; di.offload_op = dev_offload;
        f.dev = {di, &g_reg, &f};
    }
    for (int i = 0; i < nd; i++) ggml_backend_device_register(&g_devs[i].dev);
    llama_backend_init();
    llama_model_params mp = llama_model_default_params();
    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = 4096;
    if (argc > 4) {
        std::vector<float> ts(llama_max_devices(), 0.0f);
        std::vector<llama_model_tensor_buft_override> ov(llama_max_tensor_buft_overrides());
        std::vector<size_t> margins(llama_max_devices(), 1024u << 20);
        cp.n_ctx = 0;
        int st = common_fit_params(argv[1], &mp, &cp, ts.data(), ov.data(), margins.data(), 4096, nullptr, GGML_LOG_LEVEL_INFO);
        if (st != COMMON_PARAMS_FIT_STATUS_SUCCESS) { printf("status %d\n", st); return 1; }
        // printed as tools/fit-params/fit-params.cpp prints them
        printf("-c %u -ngl %d", cp.n_ctx, mp.n_gpu_layers);
        size_t n = llama_max_devices();
        if (!mp.tensor_split) n = 1;
        while (n > 1 && mp.tensor_split[n - 1] == 0.0f) n--;
        for (size_t i = 0; n > 1 && i < n; i++) printf("%s%u", i ? "," : " -ts ", (unsigned) mp.tensor_split[i]);
        bool any = false;
        for (size_t i = 0; i < llama_max_tensor_buft_overrides() && mp.tensor_buft_overrides && mp.tensor_buft_overrides[i].pattern; i++) {
            printf("%s%s=%s", i ? "," : " -ot \"", mp.tensor_buft_overrides[i].pattern, ggml_backend_buft_name(mp.tensor_buft_overrides[i].buft));
            any = true;
        }
        printf("%s\n", any ? "\"" : "");
        return 0;
    }
    mp.n_gpu_layers = atoi(argv[2]);
    std::vector<ggml_backend_dev_t> devs; uint32_t a, b, c;
    auto v = common_get_device_memory_data(argv[1], &mp, &cp, devs, a, b, c, GGML_LOG_LEVEL_ERROR);
    for (size_t i = 0; i < v.size(); i++) printf("%zu model %zu context %zu compute %zu\n", i, v[i].model, v[i].context, v[i].compute);
    return 0;
}
