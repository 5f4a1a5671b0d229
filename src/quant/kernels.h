/* kernels.h -- the kernel table: one row per ggml type with everything the
 * two directions need, so dequant.c and quantize.c look a type up in one
 * place.  The facts of the format (name, block size, bytes per block, the
 * multi-byte fields) are in base/types.c, one layer down, which the
 * format code needs without any kernel; this row adds the code. */
#ifndef LGG_KERNELS_H
#define LGG_KERNELS_H

#include "quant/deq.h"
#include "quant/quant_internal.h"

/* What the quantizer checks in every block it wrote (ggml_validate_row_data). */
enum lgg__check_kind {
    LGG__CHK_NONE, /* nothing can be invalid */
    LGG__CHK_F16S, /* `n16` f16 values at `off` in every block */
    LGG__CHK_E8M0, /* the first byte of every block must not be 0xFF */
    LGG__CHK_IQ1M, /* IQ1_M: the f16 scale spread over the top nibbles of 4 words */
    LGG__CHK_F32,  /* every element a finite float */
    LGG__CHK_BF16, /* every element a finite bfloat16 */
};

typedef struct lgg__kernel_row {
    /* dequantize: the scalar reference decoder (NULL: the type has none);
     * the SIMD decoders are looked up per architecture (x86/, arm/) and
     * replace it once, when the CPU has them */
    lgg__deq_fn deq;
    /* quantize: exactly one of these is set for a type that can be
     * quantized; `qpath` has SIMD kernels and takes the path as its last
     * argument, `qchk` may refuse a row */
    lgg__qrow_fn q;
    lgg__qrow_chk_fn qchk;
    lgg__qpath_fn qpath;
    bool needs_imatrix;   /* ggml_quantize_requires_imatrix */
    uint8_t check;        /* lgg__check_kind */
    uint8_t off, n16;     /* LGG__CHK_F16S: where the f16 scales are */
} lgg__kernel_row;

/* The row of `type`, or NULL for an id outside the table. */
LGG_HIDDEN const lgg__kernel_row *lgg__kernel(uint32_t type);

#endif
