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
 *   ref_devices MODEL NGL MiB[,MiB...] [OPTION...]
 *                                             per-device model/context/compute bytes at -ngl NGL, -c 4096
 *                                             (one line per device, then the host's), with llama.cpp's
 *                                             -c N, -fa on|off, -ts A,B,..., -sm none|layer, -mg N, -nkvo,
 *                                             -ot PATTERN=BUFFER (GPU0.. or CPU), -cmoe, -ncmoe N
 *   ref_devices MODEL 0 MiB[,MiB...] fit      master's common_fit_params (default 1024 MiB margin, -c
 *                                             minimum 4096), printed as llama-fit-params prints its flags
 *
 * Build (R = a built llama.cpp master tree, /work/ref-llama-master here):
 *   g++ -std=c++17 -O1 -I$R/include -I$R/ggml/include -I$R/ggml/src -I$R/common ref_devices.cpp \
 *       -rdynamic -L$R/build/bin -lllama-common -lllama -lggml -lggml-base -ldl -Wl,-rpath,$R/build/bin \
 *       -o ref_devices
 * (tests/estimate/ref_devices.py builds it and runs the placement cases).
 *
 * Measured (qwen3moe-small of gen_models.py, master as built in /work/ref-llama-master):
 *   fit 2500          -> -c 4096 -ngl 5 -ot "blk\.2\.ffn_(gate|gate_up|down).*=CPU,blk\.3\..._(ch|)exps=CPU,blk\.4\...."
 *   fit 1800,1800,1800 -> -c 4096 -ngl 5 -ts 2,2,1 -ot "blk\.3\.ffn_(up|down|gate_up|gate)_(ch|)exps=CPU"
 *   fit 3000,3000     -> -c 40960 -ngl -1 (fits unchanged)
 * The placement runs are tests/estimate/devices.json (tests/estimate/ref_devices.py); the fit runs are not
 * yet references.
 */
#include "ggml-backend-impl.h"
#include "llama.h"
#include "fit.h"
#include <cstdarg>
#include <cstdio>
#include <dlfcn.h>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <list>

/* As ref_master.c does: refuse the AMX tile state ggml asks the kernel for, so that the host's CPU
 * backend chooses its buffers as an AVX2/AVX-512 host without AMX does (this machine has AMX). */
extern "C" long syscall(long number, ...) {
    va_list ap;
    long a[6];
    va_start(ap, number);
    for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    if (number == 158 /* SYS_arch_prctl */ && a[0] == 0x1023 /* ARCH_REQ_XCOMP_PERM */) return -1;
    static long (*real)(long, ...);
    if (!real) *(void **) &real = dlsym(RTLD_NEXT, "syscall");
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

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
static size_t buft_align(ggml_backend_buffer_type_t) { return 128; } /* CUDA's */
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

/* llama.cpp's spellings of the placement options, applied as common/arg.cpp applies them */
static std::vector<float> g_ts;
static std::vector<llama_model_tensor_buft_override> g_ot;
static std::list<std::string> g_patterns;
static ggml_backend_buffer_type_t buft_by_name(const std::string & name, int nd) {
    for (int i = 0; i < nd; i++) if (g_devs[i].name == name) return &g_devs[i].buft;
    if (name == "CPU") return ggml_backend_dev_buffer_type(ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU));
    return nullptr;
}
static void cpu_override(const std::string & pattern, int nd) {
    g_patterns.push_back(pattern);
    g_ot.push_back({g_patterns.back().c_str(), buft_by_name("CPU", nd)});
}
static bool placement_options(int argc, char ** argv, int nd, llama_model_params * mp, llama_context_params * cp) {
    for (int i = 0; i < argc; i++) {
        std::string a = argv[i], v = i + 1 < argc ? argv[i + 1] : "";
        if (a == "-nkvo") { cp->offload_kqv = false; continue; }
        if (a == "-cmoe") { cpu_override("\\.ffn_(up|down|gate|gate_up)_(ch|)exps", nd); continue; }
        if (i + 1 >= argc) { fprintf(stderr, "%s needs a value\n", a.c_str()); return false; }
        i++;
        if (a == "-c") cp->n_ctx = (uint32_t) atoi(v.c_str());
        else if (a == "-fa") cp->flash_attn_type = v == "on" ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
        else if (a == "-mg") mp->main_gpu = atoi(v.c_str());
        else if (a == "-sm") mp->split_mode = v == "none" ? LLAMA_SPLIT_MODE_NONE : LLAMA_SPLIT_MODE_LAYER;
        else if (a == "-ts") {
            g_ts.assign(llama_max_devices(), 0.0f);
            const char * p = v.c_str();
            for (size_t k = 0; *p && k < g_ts.size(); k++) { g_ts[k] = strtof(p, (char **) &p); if (*p == ',') p++; }
            mp->tensor_split = g_ts.data();
        } else if (a == "-ncmoe") {
            for (int k = 0; k < atoi(v.c_str()); k++)
                cpu_override("blk\\." + std::to_string(k) + "\\.ffn_(up|down|gate|gate_up)_(ch|)exps", nd);
        } else if (a == "-ot") {
            size_t eq = v.find('=');
            ggml_backend_buffer_type_t b = eq == std::string::npos ? nullptr : buft_by_name(v.substr(eq + 1), nd);
            if (!b) { fprintf(stderr, "-ot %s: no such buffer type\n", v.c_str()); return false; }
            g_patterns.push_back(v.substr(0, eq));
            g_ot.push_back({g_patterns.back().c_str(), b});
        } else { fprintf(stderr, "unknown option %s\n", a.c_str()); return false; }
    }
    if (!g_ot.empty()) { g_ot.push_back({nullptr, nullptr}); mp->tensor_buft_overrides = g_ot.data(); }
    return true;
}

static const char * reg_name(ggml_backend_reg_t) { return "FAKE"; }
static size_t reg_count(ggml_backend_reg_t) { return 0; }
static void * reg_proc(ggml_backend_reg_t, const char *) { return nullptr; }
static ggml_backend_reg g_reg;
int main(int argc, char ** argv) {
    if (argc < 4) { fprintf(stderr, "usage: ref_devices MODEL NGL MiB[,MiB...] [fit | OPTION...]\n"); return 2; }
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
    cp.swa_full = false; /* llama-cli's default (common_params); the library's is true */
    if (argc > 4 && !strcmp(argv[4], "fit")) {
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
    if (!placement_options(argc - 4, argv + 4, nd, &mp, &cp)) return 2;
    std::vector<ggml_backend_dev_t> devs; uint32_t a, b, c;
    auto v = common_get_device_memory_data(argv[1], &mp, &cp, devs, a, b, c, GGML_LOG_LEVEL_ERROR);
    for (size_t i = 0; i < v.size(); i++) printf("%zu model %zu context %zu compute %zu\n", i, v[i].model, v[i].context, v[i].compute);
    return 0;
}
