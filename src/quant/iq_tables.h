/* iq_tables.h -- the lookup tables that define the IQ and FP4 formats.
 *
 * These are data, not code: each table is part of a block format's definition
 * (a grid index or a 4-bit code means nothing without it), so the values are
 * exactly ggml's (ggml-common.h at d99724f2).  Shared by the dequantizers and
 * the quantizers; the names are stable.
 *
 *   lgg__iq2xxs_grid  256 codewords of 8 magnitudes {8,25,43} (one byte each)
 *   lgg__iq2xs_grid   512 codewords, same alphabet
 *   lgg__iq2s_grid   1024 codewords, same alphabet
 *   lgg__iq3xxs_grid  256 codewords of 4 magnitudes (one byte each)
 *   lgg__iq3s_grid    512 codewords of 4 magnitudes
 *   lgg__iq1s_grid   2048 codewords of 8 values in {-1,0,+1} (int8 0xff/0x00/0x01)
 *   lgg__ksigns_iq2xs 128 sign bytes: 7 stored sign bits plus an even-parity 8th
 *   lgg__kmask_iq2xs  the bit for lane j (1 << j)
 *   lgg__kvalues_iq4nl 16 non-linear 4-bit levels
 *   lgg__kvalues_fp4  E2M1 values, doubled, shared by MXFP4 and NVFP4
 */
#ifndef LGG_IQ_TABLES_H
#define LGG_IQ_TABLES_H

#include "base/internal.h"

#define LGG__NGRID_IQ1S 2048
#define LGG__IQ1S_DELTA 0.125f
#define LGG__IQ1M_DELTA 0.125f

LGG_HIDDEN extern const uint64_t lgg__iq2xxs_grid[256];
LGG_HIDDEN extern const uint64_t lgg__iq2xs_grid[512];
LGG_HIDDEN extern const uint64_t lgg__iq2s_grid[1024];
LGG_HIDDEN extern const uint32_t lgg__iq3xxs_grid[256];
LGG_HIDDEN extern const uint32_t lgg__iq3s_grid[512];
LGG_HIDDEN extern const uint64_t lgg__iq1s_grid[LGG__NGRID_IQ1S];
LGG_HIDDEN extern const uint8_t lgg__ksigns_iq2xs[128];
LGG_HIDDEN extern const uint8_t lgg__kmask_iq2xs[8];
LGG_HIDDEN extern const int8_t lgg__kvalues_iq4nl[16];
LGG_HIDDEN extern const int8_t lgg__kvalues_fp4[16];

#endif
