/* quantize_master_models.c -- write the tiny models of
 * tests/quant_master_models.h and their importance matrices into DIR, for
 * scripts/golden-quantize-master.sh (docs/reference.md).
 *
 *   quantize_master_models DIR        prints each model's stem, one a line */
#include "quant_master_models.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: quantize_master_models DIR\n");
        return 2;
    }
    for (size_t i = 0; i < QMM_N_MODELS; i++) {
        char p[4096], q[4096];
        snprintf(p, sizeof p, "%s/%s.gguf", argv[1], QMM_MODELS[i].name);
        snprintf(q, sizeof q, "%s/%s.imatrix.dat", argv[1], QMM_MODELS[i].name);
        if (!qmm_write_model(&QMM_MODELS[i], p) || !qmm_write_imatrix(&QMM_MODELS[i], q)) {
            fprintf(stderr, "quantize_master_models: cannot write %s\n", p);
            return 1;
        }
        printf("%s\n", QMM_MODELS[i].name);
    }
    return 0;
}
