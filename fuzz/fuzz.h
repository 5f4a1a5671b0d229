/* fuzz.h -- shared by the fuzz targets (fuzz/fuzz_*.c).
 *
 * Each target defines LLVMFuzzerTestOneInput.  Built with clang
 * -fsanitize=fuzzer (make fuzz) libFuzzer drives it; built as a plain program
 * (make test) fuzz/replay.c's main() replays the corpus through it.
 *
 * A target reports a finding by aborting (FUZZ_ASSERT): libFuzzer saves the
 * input, and the replay exits on the signal, which the test suite sees. */
#ifndef LGG_FUZZ_H
#define LGG_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

#endif
