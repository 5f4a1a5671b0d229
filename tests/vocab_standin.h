/* vocab_standin.h -- llama.cpp's vocabulary GGUFs (ggml-vocab-*.gguf) reduced
 * to the entries the tests' texts can reach (tests/data/golden/vocab/, made
 * by scripts/make-vocab-standins.py; docs/reference.md), for the tokenizer
 * tests when ../shared is not there.  A stand-in keeps every token id: the
 * ids the script left out get placeholder texts no text can match (type
 * UNUSED), so on the tests' texts it gives the reference's ids, and when a
 * needed entry were missing the ids would differ from llama.cpp's. */
#ifndef LGG_TEST_VOCAB_STANDIN_H
#define LGG_TEST_VOCAB_STANDIN_H
#include "test.h"

/* The stand-in of compact file FROM (a GGUF with test.vocab.ids and
 * test.vocab.n_tokens) written to TO, through a temporary name (a concurrent
 * worker never sees half); false (the test failed) when it cannot be. */
bool vocab_expand(const char *from, const char *to);
/* The directory holding every stand-in of vocab.tsv under its reference's
 * base name (ggml-vocab-NAME@HASH.gguf), built once per process; NULL (the
 * test failed) when one cannot be built. */
const char *vocab_standin_dir(void);
/* The stand-in of vocabulary NAME (ggml-vocab-X) whose reference's sha256
 * starts with SHA (SHA NULL: vocab.tsv's first row for NAME), in one of 4
 * rotating buffers; NULL when vocab.tsv has none (or it cannot be built). */
const char *vocab_standin(const char *name, const char *sha);
/* A vocabulary NAME for a test that needs a real-sized one when it is at
 * hand: the llama.cpp checkout's models/NAME.gguf ($GGUF_LLAMA_CPP or
 * ../ref/llama.cpp), else ../shared/corpus/llama.cpp's file of vocab.tsv's
 * first row for NAME, else that row's stand-in; NULL when none is there. */
const char *vocab_realistic(const char *name);
#endif
