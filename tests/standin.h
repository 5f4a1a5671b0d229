/* standin.h -- models that stand in for the reference models when ../shared
 * is not there (standin.c). */
#ifndef LGG_TEST_STANDIN_H
#define LGG_TEST_STANDIN_H
#include "test.h"
#include "libgguf.h"

/* The directory holding a stand-in for each model listed in
 * tests/data/golden/standin/standin.tsv, under the reference's file name:
 * the reference's header (copied by scripts/make-golden-index.py) and tensor
 * data made from a seed (or zeros, for a corpus file whose tensors overlap;
 * a small corpus file, or one that does not parse, is copied whole: the
 * last column of standin.tsv says which).  Commands that read only the header (info, dump,
 * name, split --dry-run, quantize --dry-run, ...) give what they give on the
 * reference; the data is not the reference's.  Built once per process;
 * NULL, with the test failed, when a header is missing or does not open. */
const char *standin_dir(void);
/* standin_dir()/NAME (NAME: a reference's base name), or NULL. */
const char *standin_path(const char *name);

/* Swap each multi-byte field of NBLOCKS blocks of type TI in place: the
 * little-endian blocks become the big-endian ones (and back). */
void swap_blocks_to_big(const lgg_type_info *ti, uint8_t *p, size_t nblocks);


/* What gguf-py's endian converter did to the little-endian Q8_0 data P of
 * tensor T (the reference pub-dense-Q8_0.BE.gguf has it; its stand-in too):
 * it took the data as rows and the block size as a row count, so it swapped
 * every 16-bit word of rows 34k and 34k + 1 (k < rows / 34) and left the
 * other rows little-endian. */
void pyswap_q8_0(const lgg_tensor *t, uint8_t *p);

/* The reference model REL (a path under ../shared) when the reference
 * material is there, else its stand-in (REL's base name in standin.tsv);
 * NULL when neither is (then need_models() has said why). */
const char *model_path(const char *rel);
/* need_shared(), or true without ../shared when the stand-ins are built:
 * for a test whose models are all llama-quantize's.  `if (!need_models())
 * return;` */
bool need_models(void);

/* model_path(REL) when that file is there; else marks the running test
 * skipped, saying neither the reference nor a stand-in is, and returns
 * NULL.  `const char *in = need_model(REL); if (!in) return;` */
const char *need_model(const char *rel);

/* ../shared/golden/ggml-types, or without ../shared the stand-ins' directory
 * (whose type-*.gguf files are ggml's, rebuilt and checked by sha256). */
const char *ggml_types_dir(void);
/* shared_path(REL) when ../shared is there; else, for a llama-quantize model
 * or a ggml-types file, its stand-in, and for a file of golden/quant/ (an
 * input, or a quantization or dequantization output) the file rebuilt from
 * the committed inputs and checked against its sha256 (golden.h), written
 * under scratch_dir().  A path that does not open otherwise. */
const char *ref_path(const char *rel);
#endif
