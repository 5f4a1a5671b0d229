/* sarashina2.c -- the text of Sarashina2-Vision (Sarashina2VisionForCausalLM)
 * as llama.cpp master (3f545becc, conversion/sarashina2.py) converts it:
 * master's LlamaModel ("llama") on the text_config, its names under "llm."
 * (the first "llm." of a name that starts with it taken out), the
 * projector's top-level "norm." dropped, then LlamaModel's own filter (the
 * vision tower dropped, "language_model." out). */
#include "../cvint.h"

#include <string.h>

static int sarashina2_name(const char *hf, char *out, size_t cap) {
    if (!strncmp(hf, "norm.", 5)) return 0;
    return lgg__cv_master_llama_name(!strncmp(hf, "llm.", 4) ? hf + 4 : hf, out, cap);
}

const cv_hooks lgg__cv_hooks_sarashina2 = {lgg__cv_master_text_config, sarashina2_name, NULL, NULL, NULL, NULL};
