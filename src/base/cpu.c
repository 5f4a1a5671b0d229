/* cpu.c -- what this CPU can run, probed once for the whole library.
 *
 * Every SIMD choice (UTF-8 validation, dequantization, quantization) asks
 * here, so they agree, and the probe runs once behind pthread_once: the
 * answers are the library's only process-wide state, written before any
 * reader can see them. */
#include "base/internal.h"

#include <pthread.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static unsigned cpu_bits; /* LGG__CPU_*; written only inside pthread_once */

#if defined(__x86_64__) || defined(__i386__)
/* F16C from CPUID leaf 1 (ECX bit 29): clang before 15 has no "f16c" for
 * __builtin_cpu_supports.  Only consulted once AVX2 (and so the OS's saving
 * of the YMM state) is known to be there. */
static bool cpu_has_f16c(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    return (c & (1u << 29)) != 0;
}
#endif

static void probe(void) {
    unsigned bits = 0;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        bits |= LGG__CPU_AVX2;
        if (cpu_has_f16c()) bits |= LGG__CPU_F16C;
        /* libgcc's answer includes the OS's saving of the ZMM and mask state */
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512vl"))
            bits |= LGG__CPU_AVX512;
    }
#endif
#if defined(__aarch64__) && defined(__ARM_NEON)
    /* Advanced SIMD is mandatory on AArch64: nothing to ask. */
    bits |= LGG__CPU_NEON;
#endif
    cpu_bits = bits;
}

unsigned lgg__cpu_features(void) {
    pthread_once(&cpu_once, probe);
    return cpu_bits;
}

bool lgg__cpu_avx2_f16c(void) {
    const unsigned want = LGG__CPU_AVX2 | LGG__CPU_F16C;
    return (lgg__cpu_features() & want) == want;
}

bool lgg__cpu_avx512(void) {
    const unsigned want = LGG__CPU_AVX2 | LGG__CPU_F16C | LGG__CPU_AVX512;
    return (lgg__cpu_features() & want) == want;
}
