/* fuzz_spmodel.c -- a SentencePiece tokenizer.model as the tokenizer part
 * opens it (src/tokenize/tok_spmodel.c over lgg_spm_parse, the one reader,
 * which fuzz_spm covers alone), through the public API: the input after its first byte
 * is tokenizer.model in a temp folder with no tokenizer.json, opened with
 * lgg_tokenizer_open_dir.  The first byte's low three bits pick the folder's
 * tokenizer_config.json (none; add_bos_token / add_eos_token / legacy
 * combinations; malformed; not an object), bit 3 the tokenize flags.
 * Invariants: an open that fails says why in one line of printable bytes; a
 * tokenizer that opens tokenizes a few texts (and a slice of the input) with
 * every id in the vocabulary, the same count twice (an error only for
 * invalid text, with a message), and detokenizes the ids with the same
 * length on both calls. */
#include "fuzz.h"
#include "libgguf_tokenize.h"

#include <string.h>
#include <unistd.h>

static char dir[64];

static void put(const char *name, const void *p, size_t n) { fuzz_put(dir, name, p, n); }

static void cleanup(void) {
    put("tokenizer.model", NULL, 0);
    put("tokenizer_config.json", NULL, 0);
    rmdir(dir);
}

static void printable(const lgg_error *err) {
    FUZZ_ASSERT(err->message[0]);
    for (const char *m = err->message; *m; m++) FUZZ_ASSERT((unsigned char)*m >= 0x20 && *m != 0x7f);
}

static void check_text(const lgg_tokenizer *t, const char *s, size_t n, unsigned flags) {
    lgg_error err;
    memset(&err, 0, sizeof err);
    int64_t k = lgg_tokenize(t, s, n, flags, NULL, 0, &err);
    if (k < 0) { /* invalid text (a byte with no byte token, a form above U+10FFFF) */
        FUZZ_ASSERT(k == -(int64_t)LGG_ERR_INVALID);
        printable(&err);
        return;
    }
    int32_t *ids = malloc(((size_t)k + 1) * sizeof *ids);
    FUZZ_ASSERT(ids && lgg_tokenize(t, s, n, flags, ids, (size_t)k, &err) == k);
    int32_t nt = lgg_tokenizer_n_tokens(t);
    for (int64_t i = 0; i < k; i++) FUZZ_ASSERT(ids[i] >= 0 && ids[i] < nt);
    int64_t m = lgg_detokenize(t, ids, (size_t)k, 2, NULL, 0, &err);
    FUZZ_ASSERT(m >= 0);
    char *buf = malloc((size_t)m + 1);
    FUZZ_ASSERT(buf && lgg_detokenize(t, ids, (size_t)k, 2, buf, (size_t)m, &err) == m);
    free(buf);
    free(ids);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_spmodel.XXXXXX");
        if (!mkdtemp(dir)) abort();
        atexit(cleanup);
    }
    if (!size) return 0;
    static const char *const CONFIGS[8] = {NULL,
                                           "{\"add_bos_token\": false}",
                                           "{\"add_eos_token\": true, \"legacy\": false}",
                                           "{\"add_bos_token\": true, \"add_eos_token\": true, \"legacy\": true}",
                                           "{\"add_bos_token\": tru",
                                           "[\"add_bos_token\"]",
                                           "{\"legacy\": false, \"add_bos_token\": 1}",
                                           NULL};
    const char *cfg = CONFIGS[data[0] & 7];
    put("tokenizer_config.json", cfg, cfg ? strlen(cfg) : 0);
    put("tokenizer.model", data + 1, size - 1);
    lgg_tokenizer *t = NULL;
    lgg_error err;
    memset(&err, 0, sizeof err);
    lgg_status st = lgg_tokenizer_open_dir(dir, 0, &t, &err);
    if (st != LGG_OK) {
        FUZZ_ASSERT(t == NULL);
        printable(&err);
        return 0;
    }
    FUZZ_ASSERT(lgg_tokenizer_n_tokens(t) > 0 && (data[0] & 7) != 4 && (data[0] & 7) != 5);
    unsigned flags = data[0] & 8 ? LGG_TOKENIZE_ADD_SPECIAL | LGG_TOKENIZE_PARSE_SPECIAL : 0;
    static const char *const TEXTS[] = {"", "Hello world, it's 12345!", " \n\n\t  x  y ", "<s>a</s> <unk>",
                                        "\xe4\xb8\xad\xf0\x9f\xa6\x99 \xc3\xa9", "\xff\xfe"};
    for (size_t i = 0; i < sizeof TEXTS / sizeof *TEXTS; i++) check_text(t, TEXTS[i], strlen(TEXTS[i]), flags);
    check_text(t, (const char *)data + 1, size - 1 < 256 ? size - 1 : 256, flags ^ 3);
    lgg_tokenizer_free(t);
    return 0;
}
