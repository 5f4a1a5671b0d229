/* arcee.c -- Arcee (ArceeForCausalLM, AFM) as llama.cpp master (3f545becc)
 * converts it (conversion/llama.py's ArceeModel): llama's keys, names,
 * permutation and vocabulary (its MLP has no gate), then the
 * sentence-transformers pooling type when the checkpoint has one. */
#include "../cvint.h"

const cv_hooks lgg__cv_hooks_arcee = {NULL, NULL, NULL, lgg__cv_master_pooling, NULL, NULL};
