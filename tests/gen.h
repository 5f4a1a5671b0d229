/* gen.h -- building GGUF files by hand for tests (gen.c). */
#ifndef LGG_TEST_GEN_H
#define LGG_TEST_GEN_H
#include "test.h"

/* Start a file: magic, version, counts (v1 writes 32-bit counts). */
void gen_header(buf *b, uint32_t version, uint64_t n_tensors, uint64_t n_kv);
/* A length/count in the file's width (u32 in v1, u64 after). */
void gen_len(buf *b, uint32_t version, uint64_t n);
void gen_str(buf *b, uint32_t version, const char *s);
/* key + u32 type tag */
void gen_key(buf *b, uint32_t version, const char *key, uint32_t vtype);
/* tensor info */
void gen_tensor(buf *b, uint32_t version, const char *name, uint32_t n_dims, const uint64_t *ne, uint32_t type,
                uint64_t offset);
/* A small valid v3 model: 2 pairs (general.architecture="test", general.alignment=32),
   two F32 tensors "a" [8] and "b" [4,2], data filled with 1..16. */
void gen_small_model(buf *b);
#endif
