/* minicpm3.c -- what MiniCPM 3 does in code in the reference converter:
 * its long and short rope factors, qk_rope_head_dim dimensions (the rest
 * of it is DeepSeek V2's latent attention names in its row). */
#include "../cvint.h"

static lgg_status minicpm3_generated(lgg_convert *c, lgg_error *err) {
    return lgg__cv_long_short(c, lgg__cv_hparam_int(c, "qk_rope_head_dim", -1), err);
}

const cv_hooks lgg__cv_hooks_minicpm3 = {NULL, NULL, NULL, NULL, NULL, minicpm3_generated};
