/* ref_master: what llama.cpp master (3f545becc) allocates for a model on the CPU backend, in exact bytes.
 *
 * Not part of libgguf and not built by make: tests/estimate/ref_master.sh compiles it against master's
 * headers and libllama and runs it once per reference case.  It loads MODEL and creates a context with the
 * settings given (llama-cli's spelling and defaults), and prints one JSON object on standard output:
 *
 *   {"buffers": [{"kind": "model"|"kv"|"rs"|"output"|"compute", "name": BUFFER, "bytes": N}, ...],
 *    "status": 0, or 1 when llama.cpp refused the model or the settings}
 *
 * The exact bytes come from the calls whose results llama.cpp prints in MiB: this program defines
 * ggml_backend_buffer_get_size and ggml_backend_sched_get_buffer_size itself (linked with -rdynamic, so
 * libllama's calls reach these), forwards each to ggml's and keeps the last result; when llama.cpp then
 * logs "... buffer size = X MiB", that result is the X it printed.
 *
 *   ref_master MODEL [-c N] [-b N] [-ub N] [-np N] [-fa on|off|auto] [-ctk TYPE] [-ctv TYPE]
 *              [--no-mmap] [--no-repack] [--swa-full] [-kvu] [--allow-amx] [--lora FILE]... [--control-vector]
 *              [--embedding] [--pooling none|mean|cls|last|rank] [--reranking]
 *
 * --embedding, --pooling and --reranking set llama_context_params' embeddings and pooling_type as
 * common/arg.cpp does (--reranking: embeddings with rank pooling).
 *
 * --draft FILE loads a draft model after the context and makes its context as master's
 * common_speculative_init_from_params makes it from common_base_params_to_speculative's settings: the
 * target's parameters with F16 caches, n_ctx the target context's llama_n_ctx, n_outputs_max n_seq_max,
 * one output per sequence, no embeddings.  Its buffers' kinds get a "draft_" prefix.
 *
 * --lora FILE loads the adapter after the context (as llama-cli does): its buffers are kind "lora" (the
 * "LoRA buffer size" lines).  --control-vector applies a zero control vector of the model's n_embd to every
 * layer: the buffers llama.cpp allocates for it are kind "cvec" (it prints no line for them: this program
 * wraps ggml_backend_alloc_ctx_tensors_from_buft while it applies the vector).
 *
 * The log lines about sizes and settings go to standard error (the rest of llama.cpp's log is dropped).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-backend.h"
#include "llama.h"

static size_t last_size;
static char line[4096];
static size_t line_len;
static int n_printed;
static const char *kind_prefix = ""; /* "draft_" while the draft model loads and its context is made */

size_t ggml_backend_buffer_get_size(ggml_backend_buffer_t buffer)
{
    static size_t (*real)(ggml_backend_buffer_t);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "ggml_backend_buffer_get_size");
    size_t n = real(buffer);
    last_size = n;
    return n;
}

size_t ggml_backend_sched_get_buffer_size(ggml_backend_sched_t sched, ggml_backend_t backend)
{
    static size_t (*real)(ggml_backend_sched_t, ggml_backend_t);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "ggml_backend_sched_get_buffer_size");
    size_t n = real(sched, backend);
    last_size = n;
    return n;
}

/* While the control vector is applied: the buffers allocated then are its. */
static int in_cvec;

ggml_backend_buffer_t ggml_backend_alloc_ctx_tensors_from_buft(struct ggml_context *ctx, ggml_backend_buffer_type_t buft)
{
    static ggml_backend_buffer_t (*real)(struct ggml_context *, ggml_backend_buffer_type_t);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "ggml_backend_alloc_ctx_tensors_from_buft");
    ggml_backend_buffer_t b = real(ctx, buft);
    if (b && in_cvec) {
        printf("%s{\"kind\": \"cvec\", \"name\": \"%s\", \"bytes\": %zu}", n_printed++ ? ",\n  " : "\n  ",
               ggml_backend_buft_name(buft), ggml_backend_buffer_get_size(b));
    }
    return b;
}

/* This machine has AMX; ggml's CPU backend would put Q4_K/Q6_K/Q8_0 matrices in an "AMX" buffer, which
 * an AVX2 or AVX-512 host without AMX does not have.  ggml asks the kernel for the AMX tile state
 * (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)) before offering that buffer: refusing that request
 * here (unless --allow-amx) gives what such a host allocates (CPU_REPACK).  Other calls go to libc. */
static int allow_amx;

long syscall(long number, ...)
{
    va_list ap;
    long a[6];
    va_start(ap, number);
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    if (number == 158 /* SYS_arch_prctl */ && a[0] == 0x1023 /* ARCH_REQ_XCOMP_PERM */ && !allow_amx)
        return -1;
    static long (*real)(long, ...);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "syscall");
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void json_str(const char *s, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* "load_tensors:   CPU_Mapped model buffer size =   373.71 MiB": kind "model", name "CPU_Mapped" */
static const struct {
    const char *needle, *kind;
} SIZE_LINES[] = {
    {" model buffer size = ", "model"}, {" KV buffer size = ", "kv"},
    {" RS buffer size = ", "rs"},       {"  output buffer size = ", "output"},
    {" compute buffer size = ", "compute"}, {" LoRA buffer size = ", "lora"},
};

static const char *KEEP[] = {
    "buffer size", "llama_kv_cache", "llama_memory_recurrent", "n_ctx", "n_batch", "n_ubatch",
    "flash_attn", "n_seq_max", "n_ctx_seq", "kv_unified", "swa", "graph nodes", "graph splits",
    "repack", "REPACK", "error", "failed", "Flash Attention", "creating",
};

static void on_line(void)
{
    while (line_len && (line[line_len - 1] == '\n' || line[line_len - 1] == ' '))
        line[--line_len] = 0;
    int keep = 0;
    for (size_t i = 0; i < sizeof KEEP / sizeof KEEP[0]; i++)
        if (strstr(line, KEEP[i]))
            keep = 1;
    for (size_t i = 0; i < sizeof SIZE_LINES / sizeof SIZE_LINES[0]; i++) {
        char *at = strstr(line, SIZE_LINES[i].needle);
        if (!at)
            continue;
        char *colon = strchr(line, ':');
        char *name = colon ? colon + 1 : line;
        while (*name == ' ')
            name++;
        char *end = at;
        while (end > name && end[-1] == ' ')
            end--;
        printf("%s{\"kind\": \"%s%s\", \"name\": ", n_printed++ ? ",\n  " : "\n  ", kind_prefix, SIZE_LINES[i].kind);
        json_str(name, (size_t)(end > name ? end - name : 0));
        printf(", \"bytes\": %zu}", last_size);
    }
    if (keep)
        fprintf(stderr, "%s\n", line);
    line_len = 0;
    line[0] = 0;
}

static void on_log(enum ggml_log_level level, const char *text, void *user)
{
    (void)level;
    (void)user;
    for (const char *p = text; *p; p++) {
        if (line_len + 1 < sizeof line)
            line[line_len++] = *p;
        line[line_len] = 0;
        if (*p == '\n')
            on_line();
    }
}

static enum ggml_type cache_type(const char *s)
{
    static const struct {
        const char *name;
        enum ggml_type type;
    } T[] = {{"f32", GGML_TYPE_F32},   {"f16", GGML_TYPE_F16},   {"bf16", GGML_TYPE_BF16},
             {"q8_0", GGML_TYPE_Q8_0}, {"q4_0", GGML_TYPE_Q4_0}, {"q4_1", GGML_TYPE_Q4_1},
             {"iq4_nl", GGML_TYPE_IQ4_NL}, {"q5_0", GGML_TYPE_Q5_0}, {"q5_1", GGML_TYPE_Q5_1}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++)
        if (!strcmp(s, T[i].name))
            return T[i].type;
    fprintf(stderr, "ref_master: unknown cache type %s\n", s);
    exit(2);
}

static const char *loras[8];
static int n_loras, cvec;
static const char *draft;

static int parse(int argc, char **argv, struct llama_model_params *mp, struct llama_context_params *cp)
{
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--no-mmap"))
            mp->load_mode = LLAMA_LOAD_MODE_NONE;
        else if (!strcmp(a, "--no-repack"))
            mp->use_extra_bufts = false;
        else if (!strcmp(a, "--swa-full"))
            cp->swa_full = true;
        else if (!strcmp(a, "--allow-amx"))
            allow_amx = 1;
        else if (!strcmp(a, "-kvu"))
            cp->kv_unified = true;
        else if (!strcmp(a, "--control-vector"))
            cvec = 1;
        else if (!strcmp(a, "--embedding"))
            cp->embeddings = true;
        else if (!strcmp(a, "--reranking"))
            cp->embeddings = true, cp->pooling_type = LLAMA_POOLING_TYPE_RANK;
        else if (!strcmp(a, "--pooling") && v) {
            static const char *const P[] = {"none", "mean", "cls", "last", "rank"};
            int k = 0;
            while (k < 5 && strcmp(v, P[k]))
                k++;
            if (k == 5)
                return -1;
            cp->pooling_type = (enum llama_pooling_type)k; /* LLAMA_POOLING_TYPE_NONE is 0, ... RANK 4 */
            i++;
        }
        else if (!strcmp(a, "--lora") && v && n_loras < 8)
            loras[n_loras++] = v, i++;
        else if (!strcmp(a, "--draft") && v)
            draft = v, i++;
        else if (!v)
            return -1;
        else if (!strcmp(a, "-c"))
            cp->n_ctx = (uint32_t)atol(v), i++;
        else if (!strcmp(a, "-b"))
            cp->n_batch = (uint32_t)atol(v), i++;
        else if (!strcmp(a, "-ub"))
            cp->n_ubatch = (uint32_t)atol(v), i++;
        else if (!strcmp(a, "-np"))
            cp->n_seq_max = (uint32_t)atol(v), i++;
        else if (!strcmp(a, "-ctk"))
            cp->type_k = cache_type(v), i++;
        else if (!strcmp(a, "-ctv"))
            cp->type_v = cache_type(v), i++;
        else if (!strcmp(a, "-fa")) {
            cp->flash_attn_type = !strcmp(v, "on")    ? LLAMA_FLASH_ATTN_TYPE_ENABLED
                                  : !strcmp(v, "off") ? LLAMA_FLASH_ATTN_TYPE_DISABLED
                                                      : LLAMA_FLASH_ATTN_TYPE_AUTO;
            i++;
        } else
            return -1;
    }
    return 0;
}

/* The draft model and its context (see --draft above); 0 when both were made. */
static int make_draft(struct llama_model_params mp, struct llama_context_params cp, struct llama_context *target)
{
    kind_prefix = "draft_";
    int rc = 1;
    struct llama_model *model = llama_model_load_from_file(draft, mp);
    if (model) {
        cp.type_k = cp.type_v = GGML_TYPE_F16;
        cp.n_ctx = llama_n_ctx(target);
        cp.n_outputs_max = cp.n_seq_max;
        cp.n_outputs_max_per_seq = 1;
        cp.embeddings = false;
        cp.pooling_type = LLAMA_POOLING_TYPE_UNSPECIFIED;
        struct llama_context *ctx = llama_init_from_model(model, cp);
        if (ctx) {
            rc = 0;
            llama_free(ctx);
        }
        llama_model_free(model);
    }
    kind_prefix = "";
    return rc;
}

int main(int argc, char **argv)
{
    struct llama_model_params mp = llama_model_default_params();
    struct llama_context_params cp = llama_context_default_params();
    /* llama-cli's defaults (common/common.h), where they differ from the library's */
    mp.n_gpu_layers = 0;
    cp.n_ctx = 0;
    cp.n_batch = 2048;
    cp.n_ubatch = 512;
    cp.n_seq_max = 1;
    cp.swa_full = false; /* the library's default is true, llama-cli's false */
    cp.n_threads = cp.n_threads_batch = 2;
    if (argc < 2 || parse(argc, argv, &mp, &cp) != 0) {
        fprintf(stderr, "usage: ref_master MODEL [-c N] [-b N] [-ub N] [-np N] [-fa on|off|auto] [-ctk T] "
                        "[-ctv T] [--no-mmap] [--no-repack] [--swa-full] [-kvu]\n");
        return 2;
    }
    llama_log_set(on_log, NULL);
    llama_backend_init();
    printf("{\"buffers\": [");
    int status = 1;
    struct llama_model *model = llama_model_load_from_file(argv[1], mp);
    if (model) {
        struct llama_context *ctx = llama_init_from_model(model, cp);
        if (ctx) {
            status = 0;
            for (int k = 0; k < n_loras; k++)
                if (!llama_adapter_lora_init(model, loras[k]))
                    status = 1;
            if (cvec) {
                int32_t n_embd = llama_model_n_embd(model), n_layer = llama_model_n_layer(model);
                size_t len = (size_t)n_embd * (size_t)(n_layer > 1 ? n_layer - 1 : 1);
                float *zero = calloc(len, sizeof *zero);
                in_cvec = 1;
                if (!zero || llama_set_adapter_cvec(ctx, zero, len, n_embd, 1, n_layer) != 0)
                    status = 1;
                in_cvec = 0;
                free(zero);
            }
            if (draft && make_draft(mp, cp, ctx) != 0)
                status = 1;
            llama_free(ctx);
        }
        llama_model_free(model);
    }
    printf("\n ], \"status\": %d}\n", status);
    llama_backend_free();
    return 0;
}
