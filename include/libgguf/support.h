/* libgguf/support.h -- what the companion parts share: half precision, the one
 * fan-out of jobs, keyed hashing. Part of libgguf's public API, included by
 * libgguf.h (only that one is included directly; its conventions hold here). */
#ifndef LIBGGUF_SUPPORT_H
#define LIBGGUF_SUPPORT_H

#ifndef LIBGGUF_H
#error "include libgguf.h, which includes this header (inside its extern \"C\")"
#endif

/* ======================================================================== */
/* Half precision                                                            */
/* ======================================================================== */

/* Exact conversions, bit-identical to ggml's reference ones: f16/bf16 -> f32 is
 * exact; f32 -> f16 and f32 -> bf16 round to nearest even.  NaN becomes a quiet
 * NaN with the sign kept (f16: 0x7E00|sign, as ggml's scalar path; bf16: the
 * top half with the quiet bit set, as ggml).  Pure functions; thread-safe. */
LGG_API float lgg_f16_to_f32(uint16_t h);
LGG_API uint16_t lgg_f32_to_f16(float f);
LGG_API float lgg_bf16_to_f32(uint16_t h);
LGG_API uint16_t lgg_f32_to_bf16(float f);

/* ======================================================================== */
/* Threads                                                                   */
/* ======================================================================== */

/* Run fn on each of n jobs, the one fan-out the library's threaded calls
 * use (and the companion parts'): job k is `jobs + k * job_size` (job_size
 * 0: every job gets `jobs`, for workers that share a pool), job 0 runs on
 * the calling thread and up to 63 others on threads of their own; a job
 * whose thread cannot be started, and any beyond 64, runs on the calling
 * thread after job 0.  Returns when all have run.  fn's results go through
 * its job. */
LGG_API void lgg_run_jobs(void *(*fn)(void *), void *jobs, size_t job_size, unsigned n);

/* ======================================================================== */
/* Keyed hashing                                                             */
/* ======================================================================== */

/* The hash the library's name indexes use (SipHash-2-4), for hash tables
 * over untrusted names (the companion parts' vocabularies): with a key from
 * lgg_hash_key_new, drawn after the input was written, no input can choose
 * names that collide.  Pure; thread-safe. */
LGG_API uint64_t lgg_hash_keyed(const uint64_t key[2], const void *p, size_t n);
/* A fresh key: the kernel's random bytes, or (when it has none to give
 * without blocking) the time, `salt` (an address, say) and the pid mixed. */
LGG_API void lgg_hash_key_new(uint64_t key[2], const void *salt);

#endif /* LIBGGUF_SUPPORT_H */
