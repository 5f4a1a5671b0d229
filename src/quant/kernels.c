/* kernels.c -- the kernel table (kernels.h): per type, the scalar decoder,
 * the row quantizer and what is checked in its output.  The offsets of the
 * checked scales are blocks.h's named offsets, asserted there against the
 * block sizes. */
#include "quant/kernels.h"

/* D: decode only; Q: a plain quantizer; P: a quantizer with SIMD paths;
 * C: a quantizer that may refuse a row */
#define D(id, d) [id] = {d, NULL, NULL, NULL, false, LGG__CHK_NONE, 0, 0}
#define Q(id, d, f, chk, o, c) [id] = {d, f, NULL, NULL, false, chk, o, c}
#define P(id, d, f, chk, o, c) [id] = {d, NULL, NULL, f, false, chk, o, c}
#define C(id, d, f, imx, chk, o, c) [id] = {d, NULL, f, NULL, imx, chk, o, c}

static const lgg__kernel_row ROWS[LGG_TYPE_COUNT] = {
    Q(LGG_TYPE_F32, lgg__deq_f32, lgg__qrow_f32, LGG__CHK_F32, 0, 0),
    P(LGG_TYPE_F16, lgg__deq_f16, lgg__qrow_f16_path, LGG__CHK_F16S, 0, 1),
    P(LGG_TYPE_BF16, lgg__deq_bf16, lgg__qrow_bf16_path, LGG__CHK_BF16, 0, 0),
    P(LGG_TYPE_Q4_0, lgg__deq_q4_0, lgg__qrow_q4_0_path, LGG__CHK_F16S, 0, 1),
    P(LGG_TYPE_Q4_1, lgg__deq_q4_1, lgg__qrow_q4_1_path, LGG__CHK_F16S, 0, 2),
    P(LGG_TYPE_Q5_0, lgg__deq_q5_0, lgg__qrow_q5_0_path, LGG__CHK_F16S, 0, 1),
    P(LGG_TYPE_Q5_1, lgg__deq_q5_1, lgg__qrow_q5_1_path, LGG__CHK_F16S, 0, 2),
    P(LGG_TYPE_Q8_0, lgg__deq_q8_0, lgg__qrow_q8_0_path, LGG__CHK_F16S, 0, 1),
    P(LGG_TYPE_Q8_1, lgg__deq_q8_1, lgg__qrow_q8_1_path, LGG__CHK_F16S, 0, 1),
    P(LGG_TYPE_Q2_K, lgg__deq_q2_k, lgg__qrow_q2_k_path, LGG__CHK_F16S, LGG__Q2_K_D, 2),
    P(LGG_TYPE_Q3_K, lgg__deq_q3_k, lgg__qrow_q3_k_path, LGG__CHK_F16S, LGG__Q3_K_D, 1),
    P(LGG_TYPE_Q4_K, lgg__deq_q4_k, lgg__qrow_q4_k_path, LGG__CHK_F16S, 0, 2),
    P(LGG_TYPE_Q5_K, lgg__deq_q5_k, lgg__qrow_q5_k_path, LGG__CHK_F16S, 0, 2),
    P(LGG_TYPE_Q6_K, lgg__deq_q6_k, lgg__qrow_q6_k_path, LGG__CHK_F16S, LGG__Q6_K_D, 1),
    D(LGG_TYPE_Q8_K, lgg__deq_q8_k),
    Q(LGG_TYPE_TQ1_0, lgg__deq_tq1_0, lgg__qrow_tq1_0, LGG__CHK_F16S, LGG__TQ1_0_D, 1),
    Q(LGG_TYPE_TQ2_0, lgg__deq_tq2_0, lgg__qrow_tq2_0, LGG__CHK_F16S, LGG__TQ2_0_D, 1),
    P(LGG_TYPE_MXFP4, lgg__deq_mxfp4, lgg__qrow_mxfp4_path, LGG__CHK_E8M0, 0, 0),
    P(LGG_TYPE_NVFP4, lgg__deq_nvfp4, lgg__qrow_nvfp4_path, LGG__CHK_NONE, 0, 0),
    Q(LGG_TYPE_Q1_0, lgg__deq_q1_0, lgg__qrow_q1_0, LGG__CHK_F16S, 0, 1),
    Q(LGG_TYPE_Q2_0, lgg__deq_q2_0, lgg__qrow_q2_0, LGG__CHK_F16S, 0, 1),
    P(LGG_TYPE_IQ4_NL, lgg__deq_iq4_nl, lgg__qrow_iq4_nl_path, LGG__CHK_F16S, 0, 1),
    P(LGG_TYPE_IQ4_XS, lgg__deq_iq4_xs, lgg__qrow_iq4_xs_path, LGG__CHK_F16S, 0, 1),
    C(LGG_TYPE_IQ2_XXS, lgg__deq_iq2_xxs, lgg__qrow_iq2_xxs, true, LGG__CHK_F16S, 0, 1),
    C(LGG_TYPE_IQ2_XS, lgg__deq_iq2_xs, lgg__qrow_iq2_xs, true, LGG__CHK_F16S, 0, 1),
    C(LGG_TYPE_IQ2_S, lgg__deq_iq2_s, lgg__qrow_iq2_s, false, LGG__CHK_F16S, 0, 1),
    C(LGG_TYPE_IQ3_XXS, lgg__deq_iq3_xxs, lgg__qrow_iq3_xxs, false, LGG__CHK_F16S, 0, 1),
    C(LGG_TYPE_IQ3_S, lgg__deq_iq3_s, lgg__qrow_iq3_s, false, LGG__CHK_F16S, 0, 1),
    C(LGG_TYPE_IQ1_S, lgg__deq_iq1_s, lgg__qrow_iq1_s, true, LGG__CHK_F16S, 0, 1),
    C(LGG_TYPE_IQ1_M, lgg__deq_iq1_m, lgg__qrow_iq1_m, false, LGG__CHK_IQ1M, 0, 0),
    D(LGG_TYPE_I8, lgg__deq_i8),
    D(LGG_TYPE_I16, lgg__deq_i16),
    D(LGG_TYPE_I32, lgg__deq_i32),
    D(LGG_TYPE_I64, lgg__deq_i64),
    D(LGG_TYPE_F64, lgg__deq_f64),
};

_Static_assert(sizeof ROWS / sizeof ROWS[0] == LGG_TYPE_COUNT, "one row per type id");

const lgg__kernel_row *lgg__kernel(uint32_t type) { return type < LGG_TYPE_COUNT ? &ROWS[type] : NULL; }
