/* plan.h -- what the quantized-model writer (qmodel.c) reads from a plan. */
#ifndef LGG_PLAN_H
#define LGG_PLAN_H

#include "base/internal.h"

LGG_HIDDEN const lgg_file *lgg__plan_file(const lgg_quant_plan *p, size_t i);
LGG_HIDDEN size_t lgg__plan_n_files(const lgg_quant_plan *p);
LGG_HIDDEN const lgg_imatrix *lgg__plan_imatrix(const lgg_quant_plan *p);
LGG_HIDDEN const char *lgg__plan_name(const lgg_quant_plan *p, size_t i);
/* --prune-layers: true, with the block count to write */
LGG_HIDDEN bool lgg__plan_block_count(const lgg_quant_plan *p, uint32_t *n);
LGG_HIDDEN const lgg_allocator *lgg__plan_allocator(const lgg_quant_plan *p);
LGG_HIDDEN bool lgg__plan_keep_split(const lgg_quant_plan *p);

#endif
