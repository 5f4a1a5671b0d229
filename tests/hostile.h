/* hostile.h -- crafted GGUF files, one per class of attack seen against GGUF
 * readers (advisories and crash reports for ggml, gguf-py, gguf-tools,
 * gguf-parser-go, huggingface.js and others; each case cites its source), with
 * the exact status lgg_open_memory must return.  Used by tests/test_hostile.c
 * and, as fuzzing seeds, by fuzz/gen_corpus.c. */
#ifndef LGG_TEST_HOSTILE_H
#define LGG_TEST_HOSTILE_H

#include "gen.h"
#include "libgguf.h"

typedef struct hostile_case {
    const char *name;     /* short, file-name safe */
    void (*build)(buf *b);
    lgg_status expect;    /* what opening it with default options returns */
    const char *source;   /* where the attack class was reported */
    bool huge;            /* large on purpose (kept out of the fuzz corpus) */
} hostile_case;

size_t hostile_count(void);
const hostile_case *hostile_get(size_t i);
const hostile_case *hostile_find(const char *name); /* NULL if none */

/* A v3 file with `n_tensors` claimed and 2^62 metadata pairs claimed, and
 * nothing after the header: what a reader that trusts counts allocates for. */
void hostile_huge_counts(buf *b);

#endif
