/* dream.c -- Dream (DreamModel: Dream-org's diffusion model on Qwen2.5's
 * layout), which only llama.cpp master converts (its DreamModel): Qwen2's
 * tensors and master's base parameters with bidirectional attention and
 * the mask token (its row), and its vocabulary: tokenizer.model when there
 * is one, else a BPE tokenizer.json read through Dream's own
 * get_vocab_base (added tokens typed by their special flag alone). */
#include "../cvint.h"

static lgg_status dream_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    if (lgg__cv_exists(c, "tokenizer.model", NULL)) return lgg__cv_spm(c, tc, err);
    return lgg__cv_bpe_flagged(c, tc, o, err);
}

const cv_hooks lgg__cv_hooks_dream = {NULL, NULL, NULL, NULL, dream_vocab, NULL};
