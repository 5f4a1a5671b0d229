/* outtypes.c -- the reference converter's --outtype values as data: the
 * type a matrix takes, general.file_type and the default name's word. */
#include "cvint.h"

/* Each outtype (lgg_convert_outtype's index; AUTO is resolved before use):
 * the type its matrices take, general.file_type, the file name's word. */
static const struct {
    uint32_t type, file_type;
    const char *name;
} OUTTYPES[] = {
    {LGG_TYPE_F32, 0, "F32"},     {LGG_TYPE_F16, 1, "F16"},     {LGG_TYPE_BF16, 32, "BF16"}, {LGG_TYPE_Q8_0, 7, "Q8_0"},
    {LGG_TYPE_F16, 1, "F16"} /* AUTO: never used resolved */, {LGG_TYPE_TQ1_0, 36, "TQ1_0"}, {LGG_TYPE_TQ2_0, 37, "TQ2_0"},
};

static uint32_t outtype_index(const lgg_convert *c) {
    return c->outtype < sizeof OUTTYPES / sizeof OUTTYPES[0] ? c->outtype : LGG_CONVERT_F16;
}

uint32_t lgg__cv_file_type(const lgg_convert *c) {
    /* master: an MXFP4 checkpoint (gpt-oss) in f32, f16 or bf16 is MOSTLY_MXFP4_MOE */
    uint32_t o = outtype_index(c);
    if (c->mxfp4 && (o == LGG_CONVERT_F32 || o == LGG_CONVERT_F16 || o == LGG_CONVERT_BF16)) return 38;
    if (c->nvfp4 && (o == LGG_CONVERT_F32 || o == LGG_CONVERT_F16 || o == LGG_CONVERT_BF16)) return 39; /* NVFP4 */
    return OUTTYPES[o].file_type;
}

const char *lgg__cv_outtype_name(const lgg_convert *c) {
    uint32_t o = outtype_index(c);
    if (c->mxfp4 && (o == LGG_CONVERT_F32 || o == LGG_CONVERT_F16 || o == LGG_CONVERT_BF16))
        return "MXFP4_MOE"; /* master's file type for an MXFP4 checkpoint */
    if (c->nvfp4 && (o == LGG_CONVERT_F32 || o == LGG_CONVERT_F16 || o == LGG_CONVERT_BF16)) return "NVFP4";
    return OUTTYPES[o].name;
}

uint32_t lgg__cv_matrix_type(const lgg_convert *c, uint64_t ne0) {
    uint32_t type = OUTTYPES[outtype_index(c)].type;
    const lgg_type_info *ti = lgg_type_get(type);
    uint64_t block = ti ? ti->block_size : 1;
    return block > 1 && ne0 % block ? LGG_TYPE_F16 : type; /* gguf-py's QuantError: "falling back to F16" */
}
