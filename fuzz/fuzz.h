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


/* dir/name holding n bytes of p (p NULL: dir/name removed); a target that
 * cannot write its scratch files aborts, as a finding would. */
static inline void fuzz_put(const char *dir, const char *name, const void *p, size_t n) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!p) {
        remove(path);
        return;
    }
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (n) fwrite(p, 1, n, f);
    fclose(f);
}

#endif
