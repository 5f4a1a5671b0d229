/* blocks.h -- the byte layout of every ggml block, written once.
 *
 * Block sizes are composed from each block's fields, the same sums ggml's
 * block structs add up to, and checked against the sizes ggml-common.h
 * asserts, so a typo in either fails the build.  The named offsets are the
 * multi-byte fields that sit after a block's code bytes: the type table
 * (types.c) swaps them for byte-order conversion and the quantizer
 * (quant/quantize.c) checks that the scales it wrote are finite; each is
 * asserted against the size, so both read the same layout. */
#ifndef LGG_BLOCKS_H
#define LGG_BLOCKS_H

#define LGG__QK_K 256

/* bytes per block, as composed in ggml-common.h */
#define LGG__TS_Q4_0 (2 + 32 / 2)
#define LGG__TS_Q4_1 (2 * 2 + 32 / 2)
#define LGG__TS_Q5_0 (2 + 4 + 32 / 2)
#define LGG__TS_Q5_1 (2 * 2 + 4 + 32 / 2)
#define LGG__TS_Q8_0 (2 + 32)
#define LGG__TS_Q8_1 (2 * 2 + 32)
#define LGG__TS_Q2_K (LGG__QK_K / 16 + LGG__QK_K / 4 + 2 * 2)
#define LGG__TS_Q3_K (LGG__QK_K / 8 + LGG__QK_K / 4 + 12 + 2)
#define LGG__TS_Q4_K (2 * 2 + 12 + LGG__QK_K / 2)
#define LGG__TS_Q5_K (2 * 2 + 12 + LGG__QK_K / 8 + LGG__QK_K / 2)
#define LGG__TS_Q6_K (LGG__QK_K / 2 + LGG__QK_K / 4 + LGG__QK_K / 16 + 2)
#define LGG__TS_Q8_K (4 + LGG__QK_K + LGG__QK_K / 16 * 2)
#define LGG__TS_IQ2_XXS (2 + LGG__QK_K / 8 * 2)
#define LGG__TS_IQ2_XS (2 + LGG__QK_K / 8 * 2 + LGG__QK_K / 32)
#define LGG__TS_IQ3_XXS (2 + 3 * (LGG__QK_K / 8))
#define LGG__TS_IQ1_S (2 + LGG__QK_K / 8 + LGG__QK_K / 16)
#define LGG__TS_IQ4_NL (2 + 32 / 2)
#define LGG__TS_IQ3_S (2 + LGG__QK_K / 4 + LGG__QK_K / 32 + LGG__QK_K / 8 + LGG__QK_K / 64)
#define LGG__TS_IQ2_S (2 + LGG__QK_K / 4 + LGG__QK_K / 32 + LGG__QK_K / 32)
#define LGG__TS_IQ4_XS (2 + 2 + LGG__QK_K / 64 + LGG__QK_K / 2)
#define LGG__TS_IQ1_M (LGG__QK_K / 8 + LGG__QK_K / 16 + LGG__QK_K / 32)
#define LGG__TS_TQ1_0 ((LGG__QK_K - 4 * LGG__QK_K / 64) / 5 + LGG__QK_K / 64 + 2)
#define LGG__TS_TQ2_0 (LGG__QK_K / 4 + 2)
#define LGG__TS_MXFP4 (1 + 32 / 2)
#define LGG__TS_NVFP4 (64 / 16 + 64 / 2)
#define LGG__TS_Q1_0 (2 + 128 / 8)
#define LGG__TS_Q2_0 (2 + 64 / 4)

/* The sizes ggml's static_asserts pin down (ggml-common.h, d99724f). */
_Static_assert(LGG__TS_Q4_0 == 18, "q4_0");
_Static_assert(LGG__TS_Q4_1 == 20, "q4_1");
_Static_assert(LGG__TS_Q5_0 == 22, "q5_0");
_Static_assert(LGG__TS_Q5_1 == 24, "q5_1");
_Static_assert(LGG__TS_Q8_0 == 34, "q8_0");
_Static_assert(LGG__TS_Q8_1 == 36, "q8_1");
_Static_assert(LGG__TS_Q2_K == 84, "q2_K");
_Static_assert(LGG__TS_Q3_K == 110, "q3_K");
_Static_assert(LGG__TS_Q4_K == 144, "q4_K");
_Static_assert(LGG__TS_Q5_K == 176, "q5_K");
_Static_assert(LGG__TS_Q6_K == 210, "q6_K");
_Static_assert(LGG__TS_Q8_K == 292, "q8_K");
_Static_assert(LGG__TS_IQ2_XXS == 66, "iq2_xxs");
_Static_assert(LGG__TS_IQ2_XS == 74, "iq2_xs");
_Static_assert(LGG__TS_IQ3_XXS == 98, "iq3_xxs");
_Static_assert(LGG__TS_IQ1_S == 50, "iq1_s");
_Static_assert(LGG__TS_IQ4_NL == 18, "iq4_nl");
_Static_assert(LGG__TS_IQ3_S == 110, "iq3_s");
_Static_assert(LGG__TS_IQ2_S == 82, "iq2_s");
_Static_assert(LGG__TS_IQ4_XS == 136, "iq4_xs");
_Static_assert(LGG__TS_IQ1_M == 56, "iq1_m");
_Static_assert(LGG__TS_TQ1_0 == 54, "tq1_0");
_Static_assert(LGG__TS_TQ2_0 == 66, "tq2_0");
_Static_assert(LGG__TS_MXFP4 == 17, "mxfp4");
_Static_assert(LGG__TS_NVFP4 == 36, "nvfp4");
_Static_assert(LGG__TS_Q1_0 == 18, "q1_0");
_Static_assert(LGG__TS_Q2_0 == 18, "q2_0");

/* offsets of the fields after the codes (each the sum of what precedes it) */
#define LGG__Q2_K_D (LGG__QK_K / 16 + LGG__QK_K / 4)              /* d, dmin after scales, qs */
#define LGG__Q3_K_D (LGG__QK_K / 8 + LGG__QK_K / 4 + 12)          /* d after hmask, qs, scales */
#define LGG__Q6_K_D (LGG__QK_K / 2 + LGG__QK_K / 4 + LGG__QK_K / 16) /* d after ql, qh, scales */
#define LGG__Q8_K_BSUMS (4 + LGG__QK_K)                           /* 16 int16 sums after d, qs */
#define LGG__IQ3_XXS_SIGNS (2 + LGG__QK_K / 4)                    /* 8 uint32 scale+sign words */
#define LGG__IQ1_S_QH (2 + LGG__QK_K / 8)                         /* 8 uint16 after d, qs */
#define LGG__IQ1_M_SCALES (LGG__QK_K / 8 + LGG__QK_K / 16)        /* 4 uint16 after qs, qh */
#define LGG__TQ1_0_D ((LGG__QK_K - 4 * LGG__QK_K / 64) / 5 + LGG__QK_K / 64) /* d after qs, qh */
#define LGG__TQ2_0_D (LGG__QK_K / 4)                              /* d after qs */

_Static_assert(LGG__TS_Q2_K == LGG__Q2_K_D + 2 * 2, "q2_K: d and dmin end the block");
_Static_assert(LGG__TS_Q3_K == LGG__Q3_K_D + 2, "q3_K: d ends the block");
_Static_assert(LGG__TS_Q6_K == LGG__Q6_K_D + 2, "q6_K: d ends the block");
_Static_assert(LGG__TS_Q8_K == LGG__Q8_K_BSUMS + LGG__QK_K / 16 * 2, "q8_K: bsums end the block");
_Static_assert(LGG__TS_IQ3_XXS == LGG__IQ3_XXS_SIGNS + LGG__QK_K / 8, "iq3_xxs: the words end the block");
_Static_assert(LGG__TS_IQ1_S == LGG__IQ1_S_QH + LGG__QK_K / 16, "iq1_s: qh ends the block");
_Static_assert(LGG__TS_IQ1_M == LGG__IQ1_M_SCALES + LGG__QK_K / 32, "iq1_m: the scales end the block");
_Static_assert(LGG__TS_TQ1_0 == LGG__TQ1_0_D + 2, "tq1_0: d ends the block");
_Static_assert(LGG__TS_TQ2_0 == LGG__TQ2_0_D + 2, "tq2_0: d ends the block");

#endif
