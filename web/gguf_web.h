/* gguf_web.h -- the functions web/gguf_web.c exports to the page (and to
 * tests/web/verdicts.c, which runs them natively and in node).  Sizes and
 * offsets are doubles: JavaScript numbers, exact below 2^53.  JSON results
 * live until the next call that returns JSON. */
#ifndef LGG_WEB_H
#define LGG_WEB_H

#include <stdint.h>

typedef struct web_doc web_doc;

/* Open the header in `bytes` (len bytes of a size-byte file; malloc'd, the
 * document owns it).  NULL on failure: web_error_json says why, and
 * web_need() > 0 says the prefix was too short and how many bytes to read. */
web_doc *web_open(uint8_t *bytes, double len, double size, const char *name);
/* web_open's first step alone (the header parsed; no view yet): web_open is
 * web_open_header, web_reset, then web_commit (a failure of which closes). */
web_doc *web_open_header(uint8_t *bytes, double len, double size, const char *name);
double web_need(void);
void web_close(web_doc *d);
/* Back to the file's own metadata (the edits are replayed on top for undo). */
int web_reset(web_doc *d);
/* Edits as `gguf set` / `gguf rm` make them: 0, or 1 with web_error_json. */
int web_set(web_doc *d, const char *key, const char *text);
int web_remove(web_doc *d, const char *key);
int web_rename(web_doc *d, const char *from, const char *to);
/* Item `index` of array `key` set to `text` (ELEMTYPE:VALUE), the others kept. */
int web_set_item(web_doc *d, const char *key, double index, const char *text);
/* Write the new header and validate it (0, or 1 with web_error_json). */
int web_commit(web_doc *d);
const char *web_error_json(void);
const char *web_view_json(web_doc *d);
/* Metadata rows [first, first + n) as JSON; a key's index (-1: none); the
 * keys containing q (ASCII case ignored): their count, and their indices in
 * web_kv_filter_indices() until the next web_kv_filter. */
const char *web_kv_rows(web_doc *d, double first, double n);
double web_kv_find(web_doc *d, const char *key);
double web_kv_filter(web_doc *d, const char *q);
const uint32_t *web_kv_filter_indices(void);
const char *web_array_page(web_doc *d, double index, double first, double n);
/* hf:// names through the core's checker (lgg_hf_name_check, lgg_hf_resolve,
 * lgg_hf_tree_url), as the CLI checks them: {"url": URL} or {"error": why}. */
const char *web_hf_url(const char *name, const char *endpoint);
const char *web_hf_tree_url(const char *repo, const char *revision, const char *endpoint);
/* The file of a listing (paths one a line) that hf://OWNER/REPO:TAG names,
 * as the CLI picks it (lgg_hf_select): {"index": I} or {"error": why}. */
const char *web_hf_select(const char *paths, const char *tag, const char *has);
const uint8_t *web_header(web_doc *d);
double web_header_len(web_doc *d);
const char *web_plan_json(web_doc *d);

#endif
