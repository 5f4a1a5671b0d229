/* quant_iquants.c -- the IQ (grid) quantizers.  Not implemented yet: these
 * types report lgg_type_can_quantize() == false. */
#include "quant_internal.h"

bool lgg__iq_init(uint32_t type) {
    (void)type;
    return true;
}
