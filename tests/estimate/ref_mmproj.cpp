/* ref_mmproj: what llama.cpp master's (3f545becc) clip loader allocates for a projector on the CPU backend.
 *
 * Not part of libgguf and not built by make: tests/estimate/ref_mmproj.py compiles it (C++: clip.h is) against master's
 * tools/mtmd/clip.h and a library of master's clip (tools/mtmd/clip.cpp, mtmd-image.cpp, mtmd-audio.cpp,
 * models/*.cpp) and libllama/libggml.  It loads MMPROJ with clip_init as mtmd_init_from_file does (no GPU,
 * warm-up on) and prints one JSON object on standard output:
 *
 *   {"weights": N, "compute": N, "status": 0, or 1 when clip refused the file}
 *
 *   ref_mmproj MMPROJ [-fa on|off|auto]
 *
 * The bytes come from the calls clip makes: ggml_backend_alloc_ctx_tensors_from_buft (its weights' buffer)
 * and ggml_backend_sched_get_buffer_size (the compute buffer it logs after the warm-up's reservation, the
 * last one), which this program defines itself (linked with -rdynamic) and forwards to ggml. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "clip.h"
#include "ggml-backend.h"

static size_t weights, compute;

extern "C" {

/* ggml's own NAME, which this program's definition of it shadows */
static void *ggml_own(const char *name) { return dlsym(RTLD_NEXT, name); }

typedef ggml_backend_buffer_t (*alloc_fn)(struct ggml_context *, ggml_backend_buffer_type_t);
typedef size_t (*size_fn)(ggml_backend_sched_t, ggml_backend_t);

/* clip's weights buffer (it allocates no other this way) */
ggml_backend_buffer_t ggml_backend_alloc_ctx_tensors_from_buft(struct ggml_context *ctx, ggml_backend_buffer_type_t buft)
{
    ggml_backend_buffer_t b = ((alloc_fn)ggml_own("ggml_backend_alloc_ctx_tensors_from_buft"))(ctx, buft);
    weights += b ? ggml_backend_buffer_get_size(b) : 0;
    return b;
}

/* the compute buffer clip logs after reserving the warm-up's graph: the last one asked for */
size_t ggml_backend_sched_get_buffer_size(ggml_backend_sched_t sched, ggml_backend_t backend)
{
    return compute = ((size_fn)ggml_own("ggml_backend_sched_get_buffer_size"))(sched, backend);
}

} // extern "C"

int main(int argc, char **argv)
{
    clip_context_params p;
    memset(&p, 0, sizeof p);
    p.use_gpu = false;
    p.flash_attn_type = CLIP_FLASH_ATTN_TYPE_AUTO;
    p.warmup = true;
    if (argc == 4 && !strcmp(argv[2], "-fa"))
        p.flash_attn_type = !strcmp(argv[3], "on")    ? CLIP_FLASH_ATTN_TYPE_ENABLED
                            : !strcmp(argv[3], "off") ? CLIP_FLASH_ATTN_TYPE_DISABLED
                                                      : CLIP_FLASH_ATTN_TYPE_AUTO;
    else if (argc != 2) {
        fprintf(stderr, "usage: ref_mmproj MMPROJ [-fa on|off|auto]\n");
        return 2;
    }
    ggml_backend_load_all();
    clip_init_result r = clip_init(argv[1], p);
    printf("{\"weights\": %zu, \"compute\": %zu, \"status\": %d}\n", weights, compute, r.ctx_v ? 0 : 1);
    if (r.ctx_v)
        clip_free(r.ctx_v);
    if (r.ctx_a)
        clip_free(r.ctx_a);
    return 0;
}
