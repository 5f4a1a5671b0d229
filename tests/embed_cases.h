/* embed_cases.h -- the embedding models' checkpoints of
 * test_convert_embed.c (BERT-style, weights from a counter, the WordPiece
 * or SentencePiece vocabulary of tests/data), for the tests that want a
 * checkpoint whose conversion by llama.cpp b4747's convert_hf_to_gguf.py
 * is known without ../shared. */
#ifndef LGG_TEST_EMBED_CASES_H
#define LGG_TEST_EMBED_CASES_H

/* The checkpoint of the case NAME (e.g. "all-MiniLM-Tiny-Test"), written
 * again as BASE/NAME (BASE made if missing; NULL: scratch_dir()), its path
 * in a static buffer; NULL when there is no such case, it needs ../shared
 * and that is missing, or it cannot be written. */
const char *embed_case(const char *name, const char *base);
/* The sha256s of the reference's outputs for case NAME: f32, f16, bf16,
 * q8_0 and auto; NULL as for embed_case. */
const char *const *embed_case_sha(const char *name);
/* bert-base-uncased's WordPiece tokenizer.json (tests/data), BERT's
 * tokenizer_config.json and special_tokens_map.json written into dir (1 done). */
int embed_wordpiece(const char *dir);

#endif
