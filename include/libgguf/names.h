/* libgguf/names.h -- file names: the naming convention and hf:// names. Part
 * of libgguf's public API, included by libgguf.h (only that one is included
 * directly; its conventions hold here). */
#ifndef LIBGGUF_NAMES_H
#define LIBGGUF_NAMES_H

#ifndef LIBGGUF_H
#error "include libgguf.h, which includes this header (inside its extern \"C\")"
#endif

/* ======================================================================== */
/* The naming convention                                                     */
/* ======================================================================== */

/* The parts of a file name that follows the GGUF naming convention
 * <BaseName>-<SizeLabel>-<FineTune>-<Version>-<Encoding>-<Type>-<Shard>.gguf.
 * Each part is a view into the name passed in; absent parts have len 0 and
 * ptr NULL. */
typedef struct lgg_name_parts {
    lgg_str base_name, size_label, fine_tune, version, encoding, type, shard;
} lgg_name_parts;

/* Match `name` (a base name, no directory) against the convention's regular
 * expression, with the same choices its backtracking makes.  Returns true and
 * fills *out when it matches, false otherwise.  Thread-safe. */
LGG_API bool lgg_name_parse(const char *name, size_t len, lgg_name_parts *out);

/* The file name the convention recommends for `f`, built from its metadata
 * the way gguf-py's naming_convention() does:
 *   <BaseName>[-<SizeLabel>][-<FineTune>][-<Version>][-<Encoding>][-<Type>][-<Shard>].gguf
 *  - BaseName: general.basename, else general.name, else "ggml-model", trimmed,
 *    spaces and '/' turned into '-';
 *  - SizeLabel: general.size_label as it is, else computed from the tensors (see
 *    lgg_size_label; with <arch>.expert_count, "<experts>x" and the count of
 *    the shared tensors plus one expert's share of the "_exps." tensors);
 *    absent when the file has no parameters;
 *  - FineTune, Version: general.finetune, general.version (spaces -> '-');
 *  - in every part, control characters (C0, DEL, C1) are left out and '/'
 *    becomes '-': the name is printable and names no folder;
 *  - Encoding: general.file_type's name without "MOSTLY_"/"ALL_" ("Q4_K_M", "F32");
 *  - Type: "LoRA" when general.type is "adapter", "vocab" when it is "vocab";
 *  - Shard: "NNNNN-of-MMMMM" from split.no and split.count.
 * snprintf's contract: returns the length the name needs; when it does not
 * fit, buf (cap > 0) holds "".  Thread-safe. */
LGG_API size_t lgg_recommended_name(const lgg_file *f, char *buf, size_t cap);

/* The recommended name of shard `index` (from 0) of a shard set set[0..n_set),
 * so that every shard of a set gets the same base: the metadata comes from
 * set[0] (the first shard, which holds it all), the parameter count from every
 * shard, and the Shard part is index+1 of n_set (none when n_set is 1).
 * Returns as lgg_recommended_name; 0 if set or set[0] is NULL or n_set is 0. */
LGG_API size_t lgg_recommended_shard_name(const lgg_file *const *set, size_t n_set, uint32_t index, char *buf,
                                          size_t cap);

/* ======================================================================== */
/* hf:// names: checked and turned into URLs, without a request              */
/* ======================================================================== */
/* The one check of Hugging Face names that libgguf-remote (the CLI) and the
 * GGUF Editor (web/) both apply before any request.  Pure string work: no
 * I/O, no allocation, no environment (libgguf-remote passes HF_ENDPOINT). */

/* Whether hf://OWNER/REPO/PATH[@REVISION] can be requested (REVISION: what
 * follows the last '@' of PATH).  OWNER, REPO and each '/'-separated
 * segment of PATH and REVISION must be non-empty, not "." or "..", and hold
 * no '?', '#', backslash, control character (below 0x20, 0x7f), nor a
 * percent-encoded '.', '/' or backslash ("%2e", "%2f", "%5c", any case):
 * each would change which resource the URL names.  When it cannot, why
 * (if not NULL and cap > 0) gets the reason, NUL-terminated. */
LGG_API bool lgg_hf_name_check(const char *name, char *why, size_t cap);

/* The URL such a name stands for, ENDPOINT/OWNER/REPO/resolve/REVISION/PATH
 * (REVISION "main" when none; endpoint NULL or "": https://huggingface.co,
 * trailing '/' dropped), each part percent-encoded as huggingface_hub's
 * hf_hub_url does (Python's urllib.parse.quote: letters, digits, "-._~"
 * kept, '/' kept in PATH only: refs/pr/1 gives refs%2Fpr%2F1), into buf
 * with snprintf's contract.  Returns the length it needs (without the NUL),
 * or 0 for a name lgg_hf_name_check refuses. */
LGG_API size_t lgg_hf_resolve(const char *name, const char *endpoint, char *buf, size_t cap);

/* The hub's listing of repository `repo` ("OWNER/REPO") at `revision` (NULL:
 * "main"): ENDPOINT/api/models/OWNER/REPO/tree/REVISION?recursive=true, the
 * same checks and encoding (REVISION one segment), into buf with
 * snprintf's contract.  Returns the length it needs, or 0 with the reason
 * in why (if not NULL and why_cap > 0). */
LGG_API size_t lgg_hf_tree_url(const char *repo, const char *revision, const char *endpoint, char *buf, size_t cap,
                               char *why, size_t why_cap);

/* llama.cpp's -hf OWNER/REPO:QUANT over a repository's file paths (its
 * listing): the *.gguf path containing `tag` case-insensitively (tag NULL
 * or "": "Q4_K_M"), or, for a shard set, its first shard (the set must be
 * complete); its index into *index.  Errors: LGG_ERR_NOT_FOUND (no match,
 * or a shard set with a shard missing), LGG_ERR_INVALID (several matches
 * that are not one shard set: the message lists them).  `has` (NULL: left
 * out) is what the message of a missing match says the repository has
 * (libgguf-remote's lgg_hub_select names its quantizations). */
LGG_API lgg_status lgg_hf_select(const char *const *paths, size_t n, const char *tag, const char *has, size_t *index,
                                 lgg_error *err);

#endif /* LIBGGUF_NAMES_H */
