/* corpus.h -- the corpus of real files (../shared/corpus), or without
 * ../shared its compact copy (tests/data/golden/corpus.tsv and
 * corpus.heads, made by scripts/make-golden-index.py; docs/reference.md):
 * every file a short prefix reproduces, rebuilt on first use. */
#ifndef LGG_TEST_CORPUS_H
#define LGG_TEST_CORPUS_H
#include "test.h"

typedef struct corpus_row {
    char path[256];   /* under corpus/ */
    char sha256[65];  /* the reference file's */
    char data[8];     /* "whole": the prefix is the file; "zeros": the rest is zeros */
    unsigned long long bytes, head_bytes, head_at; /* head_at: where its prefix starts in corpus.heads */
    unsigned version;
    unsigned long long n_tensors, n_kv; /* MANIFEST.tsv's */
    bool both_accept;                   /* ggml and gguf-py both open it (MANIFEST.tsv) */
} corpus_row;

/* The rows of corpus.tsv (read once); how many, 0 when it is unreadable. */
int corpus_index(const corpus_row **rows);
/* True when ../shared is there or the compact copy is readable; else marks
 * the test skipped with the reason.  `if (!need_corpus()) return;` */
bool need_corpus(void);
/* The corpus file REL (a path under corpus/, as in tests/corpus_expect.tsv):
 * ../shared's, or without it the file rebuilt from its prefix (a "whole"
 * one checked against the reference's sha256: a test failure when it
 * differs); NULL when the compact copy leaves it out (a vocabulary file).
 * One of 8 rotating static buffers. */
const char *corpus_path(const char *rel);
#endif
