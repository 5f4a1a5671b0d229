/* ref_load: whether llama.cpp master (3f545becc) loads a model file, and why not.
 *
 * Not part of libgguf and not built by make: tests/validate/ref_load.py compiles it against master's
 * headers and libllama and runs it once per case (a process each: master aborts on some files).  It
 * calls llama_model_load_from_file (CPU only, mmap, no repacking; the vocabulary and the weights, no context)
 * and prints one line on standard output:
 *
 *   {"loaded": true|false, "error": "master's reason, or empty"}
 *
 * The reason is the text of master's "error loading model: ..." log line, the last of its lines that
 * has "error" in it.  Master's other log lines are dropped. */
#include <stdio.h>
#include <string.h>

#include "llama.h"

static char line[4096], reason[4096];
static size_t line_len;

static void on_line(void) {
    while (line_len && (line[line_len - 1] == '\n' || line[line_len - 1] == ' ')) line[--line_len] = 0;
    const char *at = strstr(line, "error loading model: ");
    if (at) snprintf(reason, sizeof reason, "%s", at + strlen("error loading model: "));
    else if (!reason[0] && strstr(line, "error")) snprintf(reason, sizeof reason, "%s", line);
    line_len = 0;
    line[0] = 0;
}

static void on_log(enum ggml_log_level level, const char *text, void *user) {
    (void)level;
    (void)user;
    for (const char *p = text; *p; p++) {
        if (line_len + 1 < sizeof line) line[line_len++] = *p;
        line[line_len] = 0;
        if (*p == '\n') on_line();
    }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: ref_load MODEL\n");
        return 2;
    }
    llama_log_set(on_log, NULL);
    llama_backend_init();
    struct llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = 0;
    mp.use_extra_bufts = false; /* no repacking: the verdict does not depend on it, and it reads every weight */
    struct llama_model *model = llama_model_load_from_file(argv[1], mp);
    if (line_len) on_line();
    printf("{\"loaded\": %s, \"error\": \"", model ? "true" : "false");
    for (const char *p = model ? "" : reason; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    printf("\"}\n");
    if (model) llama_model_free(model);
    llama_backend_free();
    return 0;
}
